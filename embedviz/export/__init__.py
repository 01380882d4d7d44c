"""Course-page export: web video, posters, captions, transcripts and a gallery."""

from __future__ import annotations

__all__: list[str] = []
