"""A stand-in for rendering a clip, for tests of how a site grows (no Manim, no encoder).

``fake_clip`` takes the place of :func:`embedviz.export.media.export_clip`: it
writes a clip folder whose files depend on exactly what a render would (the
storyboard and the quality), and returns the gallery fields the real one
returns. Each call appends its scene to the file named by ``FAKE_RENDER_LOG``,
so a test can count renders. With ``FAKE_RENDER_HOLD=FILE`` it creates FILE and
then waits (up to a minute), so a test can stop the export while it renders.

Run as a script, it is ``embedviz`` with this stand-in: ``python
fake_site_export.py export single --out site``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sys
import time
from pathlib import Path
from typing import Any

from embedviz.export.documents import ExportedClip
from embedviz.story.model import Storyboard
from embedviz.story.scenes import find_scene

LOG_VARIABLE = "FAKE_RENDER_LOG"
HOLD_VARIABLE = "FAKE_RENDER_HOLD"


def fake_clip(
    scene: str,
    quality: str,
    out_dir: str | Path,
    overrides: dict[str, Any] | None = None,
    voice: Any = None,
    *,
    board: Storyboard | None = None,
    **settings: Any,
) -> dict[str, Any]:
    """Write a few small files for a clip, as a render of ``board`` at ``quality`` would."""
    assert board is not None, "the site passes every worker its storyboard"
    hold = os.environ.get(HOLD_VARIABLE)
    if hold:
        Path(hold).touch()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            time.sleep(0.05)
    log = os.environ.get(LOG_VARIABLE)
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(board.scene + "\n")
    spec = find_scene(board.scene)
    folder = Path(out_dir) / spec.name
    folder.mkdir(parents=True, exist_ok=True)
    said = "\n".join(beat.narration for beat in board.all_beats())
    picture = hashlib.sha256(f"{quality}\n{board.to_json()}".encode()).hexdigest()
    (folder / f"{spec.name}.mp4").write_text(f"{spec.name} at -q{quality}: {picture}\n")
    (folder / f"{spec.name}.{board.language}.vtt").write_text(f"WEBVTT\n\n{said}\n")
    (folder / f"{spec.name}.storyboard.json").write_text(board.to_json(), encoding="utf-8")
    # What the real export returns: the gallery's fields, and how long it took.
    clip = ExportedClip.of(board, spec.summary)
    fields = {field.name: getattr(clip, field.name) for field in dataclasses.fields(clip)}
    return {**fields, "words": dict(clip.words), "seconds": 0.0}


if __name__ == "__main__":
    import embedviz.export.site as site

    site.export_clip = fake_clip  # type: ignore[assignment]
    from embedviz.launch import run

    sys.exit(run(sys.argv[1:]))
