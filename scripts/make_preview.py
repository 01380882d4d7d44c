"""Regenerate the README preview: ``media/preview/preview.gif`` and ``.png``.

Run from the repository root after ``scripts/bootstrap.sh``::

    .venv/bin/python scripts/make_preview.py

It renders SequenceLookup at 480p15 into a temporary folder, then keeps the
frames of the first two lookups (every other frame, half size) as a looping
GIF and the final frame as a PNG. Both stay well under 1 MiB.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import av
from PIL import Image

from embedviz.inputs import prepared_storyboard

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "media" / "preview"


def main() -> None:
    """Render, cut and save the preview."""
    board = prepared_storyboard("SequenceLookup", cwd=REPO, environ={})
    starts = dict(zip((b.name for b in board.beats), board.beat_start_times(), strict=True))
    first, last = starts["lookup-0"], starts["lookup-rest"]
    with tempfile.TemporaryDirectory() as media:
        subprocess.run(
            [sys.executable, "-m", "embedviz", "render", "SequenceLookup", "-ql", "-o", media],
            check=True,
            cwd=REPO,
        )
        frames: list[Image.Image] = []
        final: Image.Image | None = None
        with av.open(str(Path(media) / "SequenceLookup.mp4")) as container:
            stream = container.streams.video[0]
            for index, frame in enumerate(container.decode(stream)):
                time = float(frame.pts * stream.time_base)
                image = frame.to_image()
                final = image
                if first <= time < last and index % 2 == 0:
                    frames.append(image.resize((427, 240), Image.LANCZOS))
    OUT.mkdir(parents=True, exist_ok=True)
    # One palette for every frame, from a strip of frames across the clip: from the middle
    # frame alone, 48 median-cut colours washed the value colours out (blue read white,
    # vermillion peach; octree keeps the legend within 2.5 levels of the source),
    # and a value's colour is its sign.
    sample = frames[:: max(1, len(frames) // 6)]
    strip = Image.new("RGB", (sample[0].width * len(sample), sample[0].height))
    for index, frame in enumerate(sample):
        strip.paste(frame, (index * frame.width, 0))
    palette = strip.quantize(colors=255, method=Image.Quantize.FASTOCTREE)
    quantised = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    quantised[0].save(
        OUT / "preview.gif",
        save_all=True,
        append_images=quantised[1:],
        duration=round(1000 * 2 / 15),
        loop=0,
        optimize=True,
    )
    assert final is not None
    final.save(OUT / "preview.png", optimize=True)
    for path in sorted(OUT.iterdir()):
        print(f"{path.relative_to(REPO)}: {path.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
