#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The camstamp authors
"""invisible-watermark's dwtDct as the referee of camstamp's invisible mark.

Its maxDct.py is loaded by path: the package's __init__ imports torch (for rivaGan), which the
dwtDct method does not need. Pictures go in and out as binary PPM (P6), which the Swift tests
read and write without a decoder.

  referee.py photo SEED WIDTH HEIGHT OUT.ppm   a generated photo-like picture
  referee.py embed IN OUT HEX                  invisible-watermark's mark of HEX (8 bytes)
  referee.py decode IN                         the 16 hex digits it reads
  referee.py jpeg IN OUT QUALITY               IN through OpenCV's JPEG (libjpeg, 4:2:0) and back
  referee.py ppm IN OUT.ppm                     IN decoded by OpenCV (libjpeg), as a PPM
  referee.py resize IN OUT FACTOR              area-resampled by FACTOR
  referee.py payload TEXT                      the first 8 bytes of SHA-256(TEXT), in hex
"""
import hashlib
import importlib.util
import os
import sys

import cv2
import numpy as np

BITS = 64


def max_dct():
    package = importlib.util.find_spec("imwatermark")
    if package is None or not package.submodule_search_locations:
        sys.exit("referee: invisible-watermark is not installed (make python-deps)")
    path = os.path.join(list(package.submodule_search_locations)[0], "maxDct.py")
    spec = importlib.util.spec_from_file_location("referee_maxdct", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.EmbedMaxDct


def read(path):
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        sys.exit(f"referee: cannot read {path}")
    return image


def write(path, image):
    if not cv2.imwrite(path, image):
        sys.exit(f"referee: cannot write {path}")


def photo(seed, width, height):
    """Smooth colour fields, shapes and grain: the blocks a camera photo has (flat sky, edges, texture)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    image = np.zeros((height, width, 3), np.float32)
    for channel in range(3):
        fx, fy, phase = rng.uniform(0.5, 4, 2).tolist() + [rng.uniform(0, 6.3)]
        image[..., channel] = 128 + 70 * np.sin(x / width * fx * 3.1 + phase) * np.cos(y / height * fy * 3.1)
    for _ in range(12):
        cx, cy = rng.integers(0, width), rng.integers(0, height)
        radius = int(rng.integers(height // 20, height // 4))
        colour = rng.integers(0, 256, 3).tolist()
        cv2.circle(image, (int(cx), int(cy)), radius, colour, -1, cv2.LINE_AA)
    image += rng.normal(0, rng.uniform(1, 6), image.shape).astype(np.float32)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    return np.clip(image + 0.5, 0, 255).astype(np.uint8)


def bits_of(hex_digits):
    return list(np.unpackbits(np.frombuffer(bytes.fromhex(hex_digits), np.uint8)))


def hex_of(bits):
    return np.packbits(np.array(bits, np.uint8)).tobytes().hex()


def main(argv):
    command = argv[1]
    if command == "photo":
        write(argv[5], photo(int(argv[2]), int(argv[3]), int(argv[4])))
    elif command == "embed":
        marked = max_dct()(bits_of(argv[4]), wmLen=BITS).encode(read(argv[2]))
        write(argv[3], marked)
    elif command == "decode":
        print(hex_of(max_dct()(watermarks=[], wmLen=BITS).decode(read(argv[2]))))
    elif command == "jpeg":
        done, encoded = cv2.imencode(".jpg", read(argv[2]), [cv2.IMWRITE_JPEG_QUALITY, int(argv[4])])
        write(argv[3], cv2.imdecode(encoded, cv2.IMREAD_COLOR))
    elif command == "ppm":
        write(argv[3], read(argv[2]))
    elif command == "resize":
        image = read(argv[2])
        factor = float(argv[4])
        size = (round(image.shape[1] * factor), round(image.shape[0] * factor))
        write(argv[3], cv2.resize(image, size, interpolation=cv2.INTER_AREA))
    elif command == "payload":
        print(hashlib.sha256(argv[2].encode()).digest()[:8].hex())
    else:
        sys.exit(f"referee: unknown command {command}")


if __name__ == "__main__":
    main(sys.argv)
