#!/usr/bin/env python3
"""Makes a small folder of demo photos in mixed orientations, for `make demo`.

Each photo shows "TOP" at the top of the picture as a person should see it. The pixels are stored
rotated or mirrored and the EXIF Orientation tag says how to undo that, as cameras do, so a tool
that ignores the tag shows the photo sideways. Needs gst-launch-1.0 (textoverlay, videoflip, jpegenc).

Usage: make-demo-photos.py OUTDIR
"""
import shlex
import struct
import subprocess
import sys
from pathlib import Path

# EXIF orientation -> videoflip video-direction that turns the upright picture into the stored one
# (the inverse of what a viewer applies). Not the deprecated `method`: gst-launch ignores it.
STORE = {1: "identity", 3: "180", 6: "90l", 8: "90r", 2: "horiz"}


def exif_segment(orientation: int, model: str) -> bytes:
    """A minimal big-endian EXIF APP1 with Make, Model and Orientation in IFD0."""
    make = b"camstamp\x00"
    model_bytes = model.encode() + b"\x00"
    entries = 3
    ifd_size = 2 + entries * 12 + 4
    data_offset = 8 + ifd_size
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", entries)
    tiff += struct.pack(">HHII", 0x010F, 2, len(make), data_offset)
    tiff += struct.pack(">HHII", 0x0110, 2, len(model_bytes), data_offset + len(make))
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack(">I", 0) + make + model_bytes
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def make_photo(path: Path, width: int, height: int, orientation: int) -> None:
    flip = STORE[orientation]
    pipeline = (
        f"videotestsrc num-buffers=1 pattern=smpte75 ! video/x-raw,width={width},height={height} "
        f"! textoverlay text=\"TOP ({orientation})\" valignment=top halignment=center font-desc=\"Sans Bold 48\" "
        f"! videoflip video-direction={flip} ! jpegenc quality=90 ! filesink location={shlex.quote(str(path))}"
    )
    subprocess.run(f"gst-launch-1.0 -q {pipeline}", check=True, shell=True)
    jpeg = path.read_bytes()
    assert jpeg[:2] == b"\xff\xd8"
    path.write_bytes(jpeg[:2] + exif_segment(orientation, "Demo Camera") + jpeg[2:])


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    photos = [("landscape", 1280, 853, 1), ("landscape-upside-down", 1280, 853, 3),
              ("portrait-rotated-right", 853, 1280, 6), ("portrait-rotated-left", 853, 1280, 8),
              ("landscape-mirrored", 1280, 853, 2)]
    for name, width, height, orientation in photos:
        make_photo(out / f"{name}.jpg", width, height, orientation)


if __name__ == "__main__":
    main()
