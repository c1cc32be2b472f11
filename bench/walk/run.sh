#!/usr/bin/env bash
# bench/walk/run.sh JPEG: the entropy splice's walk in C (as shipped; then walk_scan, and decode_mcu)
# and in Swift (unsafe buffers), on one baseline 4:2:0 JPEG with standard tables and no restart
# markers (such as bench-output/photos-standard/photo-001.jpg), three times each. Prints ms per
# scan. CC=clang builds the C as SwiftPM does (clang -O2).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jpeg=${1:?usage: run.sh JPEG}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${CC:-gcc}" -O2 -o "$work/cwalk" "$here/cwalk.c" -I "$here/../../Sources/CJPEGCoefficients/include" -I "$here/../../Sources/CJPEGCoefficients" -ljpeg -lm -lpthread
swiftc -O -o "$work/swalk" "$here/walk.swift"
mcus=$("$work/cwalk" "$jpeg" "$work" | sed -n 's/.*MCUs \([0-9]*\).*/\1/p')
for _ in 1 2 3; do "$work/cwalk" "$jpeg" "$work"; "$work/swalk" "$work" "$mcus"; done
