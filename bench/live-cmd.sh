#!/usr/bin/env bash
# bench/live-cmd.sh WHAT ASSETS [ARG]   prints one shell command line for the live benchmarks
#
#   blend-none N           gst-launch: N black frames 1920x1080 I420 from videotestsrc into fakesink
#   blend-marks N          the same with textoverlay + gdkpixbufoverlay (credit + logo look-alike)
#   blend-camstamp N       camstamp-bench: N frames of Marker.mark with --preset credit --preset logo
#   stream-camstamp FILE   camstamp stream, test camera, credit + logo, 1080p30, STREAM_SECONDS s
#   stream-marks FILE      gst-launch: the same source, overlays and encoder settings, live
#   stream-none FILE       gst-launch: source and encoder only (how much the encoder itself costs)
#
# Env: CAMSTAMP, CAMSTAMP_BENCH (binaries), STREAM_SECONDS (default 10), AUTHOR.
#
# What camstamp draws at 1920x1080 (short side 1080): `credit` is "© {author} {date:%Y}", Noto Sans
# semibold at 3.2% = 34.56 px (25.92 pt at 96 dpi), white with an outline and a soft shadow,
# bottom-right, 3% = 32 px from the edges; `logo` is the bundled SVG 16% = 173 px wide (173x144),
# 85% opacity, top-left at 32 px. textoverlay gets the same text, size and place (its own outline and
# shadow), gdkpixbufoverlay the same logo rendered to PNG at that size. Encoder: what camstamp's
# stream-mp4 pipeline uses: x264enc speed-preset=veryfast tune=zerolatency bitrate=4000
# key-int-max=30, h264parse, mp4mux fragment-duration=1000. Source: camstamp's test camera,
# videotestsrc pattern=smpte75 horizontal-speed=2, live.
set -euo pipefail

what=${1:?usage: live-cmd.sh WHAT ASSETS [ARG]}
assets=${2:?ASSETS}
arg=${3:-}
author=${AUTHOR:-Example Studio}
seconds=${STREAM_SECONDS:-10}
frames=$(( seconds * 30 ))
caps="video/x-raw,format=I420,width=1920,height=1080,framerate=30/1"
text="© $author 2026"
overlays="textoverlay text=\"$text\" font-desc=\"Noto Sans SemiBold 25.92\" auto-resize=false wrap-mode=none \
halignment=right valignment=bottom xpad=32 ypad=32 draw-outline=true draw-shadow=true ! \
gdkpixbufoverlay location=\"$assets/logo-173.png\" offset-x=32 offset-y=32 alpha=0.85"
encoder="x264enc speed-preset=veryfast tune=zerolatency bitrate=4000 key-int-max=30 ! h264parse ! \
mp4mux fragment-duration=1000 ! filesink location=\"$arg\""
camera="videotestsrc is-live=true num-buffers=$frames pattern=smpte75 horizontal-speed=2 ! $caps"

case $what in
    # pattern=black: the source costs ~0.15 ms a frame instead of ~3 ms for the default bars, so the
    # difference of the two processes is the overlays' cost and not the source's noise; blending
    # costs the same whatever the pixels are.
    blend-none) echo "GST_DEBUG=0 gst-launch-1.0 -q videotestsrc num-buffers=$arg pattern=black ! $caps ! fakesink sync=false" ;;
    blend-marks) echo "GST_DEBUG=0 gst-launch-1.0 -q videotestsrc num-buffers=$arg pattern=black ! $caps ! $overlays ! fakesink sync=false" ;;
    blend-camstamp)
        echo "\"${CAMSTAMP_BENCH:?}\" --preset credit --preset logo --var \"author=$author\" --size 1920x1080 --format I420 --frames $arg --warmup 30 --json" ;;
    stream-camstamp)
        echo "\"${CAMSTAMP:?}\" stream --source test --preset credit --preset logo --var \"author=$author\" --size 1920x1080 --fps 30 --duration $seconds --to \"$arg\"" ;;
    stream-marks) echo "GST_DEBUG=0 gst-launch-1.0 -q -e $camera ! $overlays ! $encoder" ;;
    stream-none) echo "GST_DEBUG=0 gst-launch-1.0 -q -e $camera ! $encoder" ;;
    *) echo "live-cmd.sh: unknown '$what'" >&2; exit 2 ;;
esac
