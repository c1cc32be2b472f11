#!/usr/bin/env bash
# bench/run.sh - camstamp's benchmark against the tools people would otherwise use.
# `make bench` installs the tools, builds release, then runs this. Markdown on stdout and in
# bench-output/results.md; raw runs in bench-output/*.json; progress on stderr. See bench/README.md.
#
# Env (defaults in brackets):
#   CAMSTAMP, CAMSTAMP_BENCH   binaries [.build/release/camstamp, .build/release/camstamp-bench]
#   BENCH_OUT                  output folder [bench-output]
#   BENCH_PHOTOS               12 MP photos in the batch corpus [32]
#   BENCH_ROUNDS               interleaved timed rounds for batch and stream [3]
#   BENCH_BLEND_ROUNDS         rounds for the per-frame blend [7]
#   BENCH_BLEND_FRAMES         frames per blend run, both sides [1500]
#   STREAM_SECONDS             length of each stream run [10]
#   BENCH_SETTLE, BENCH_SETTLE_WAIT   wait before a run until other processes use < 15% of the
#                              machine, at most 5 s (measure.py); BENCH_SETTLE=0 turns it off
#   PREVIEW_SECONDS, PREVIEW_ROUNDS   the camera preview part [10, 3]
#   BENCH_HEIC_PHOTOS          12 MP HEIC photos for part 6, made from the first JPEGs [8]
#   VIEWFINDER_SECONDS, VIEWFINDER_SHOTS   the viewfinder part: latency, press to file [8, 20]
#   PREVIEW_LATENCY_SECONDS, PREVIEW_LATENCY_SIZES   the page's preview, WebRTC and MJPEG, in Chromium
#                              [8, "640x480 1280x720"]
#   BENCH_ONLY                 "blend batch stream resize coefficients heic preview viewfinder
#                              preview-latency rtsp clip invisible shards" or a subset
#   SHARD_NAMES                names in part 10's listing tree (bench/shards.sh) [100000]
#   RTSP_WINDOW, RTSP_ROUNDS   the RTSP viewers part (bench/rtsp-viewers.sh) [10, 2]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
out=${BENCH_OUT:-$repo/bench-output}
export CAMSTAMP=${CAMSTAMP:-$repo/.build/release/camstamp}
export CAMSTAMP_BENCH=${CAMSTAMP_BENCH:-$repo/.build/release/camstamp-bench}
export CAMSTAMP_HOME=${CAMSTAMP_HOME:-$repo}   # presets, pipelines and fonts of this checkout
export BENCH_SETTLE_WAIT=${BENCH_SETTLE_WAIT:-5}
export JOBS=2
photos_n=${BENCH_PHOTOS:-32}
rounds=${BENCH_ROUNDS:-3}
blend_rounds=${BENCH_BLEND_ROUNDS:-7}
blend_frames=${BENCH_BLEND_FRAMES:-1500}
export STREAM_SECONDS=${STREAM_SECONDS:-10}
only=${BENCH_ONLY:-blend batch stream resize coefficients heic preview viewfinder preview-latency rtsp clip invisible shards}
heic_n=${BENCH_HEIC_PHOTOS:-8}

say() { printf 'bench: %s\n' "$*" >&2; }

missing=()
for tool in curl gst-launch-1.0 gst-inspect-1.0 convert-im6.q16 vips vipsheader vipsthumbnail ffmpeg ffprobe djpeg cjpeg exiftool /usr/bin/time python3; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
for bin in "$CAMSTAMP" "$CAMSTAMP_BENCH"; do [ -x "$bin" ] || missing+=("$bin (swift build -c release)"); done
for element in textoverlay gdkpixbufoverlay x264enc mp4mux jpegparse videoflip; do
    gst-inspect-1.0 --exists "$element" 2>/dev/null || missing+=("GStreamer element $element")
done
if [ ${#missing[@]} -gt 0 ]; then
    printf 'bench: missing: %s\nbench: `make bench-deps` installs the tools, `make bench` does everything.\n' "${missing[*]}" >&2
    exit 2
fi

mkdir -p "$out"
assets="$out/assets" photos="$out/photos"
log="$out/bench.log"
: >"$log"
export BENCH_LOG=$log
measure() { python3 "$here/lib/measure.py" "$@"; }
started=$(date +%s)

{
    echo "date=$(date -u +%FT%TZ)"
    echo "cores=$(nproc)"
    echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
    echo "camstamp=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$repo" diff --quiet HEAD -- Sources Package.swift 2>/dev/null || echo ' (work tree differs from HEAD)')"
    echo "gstreamer=$(gst-launch-1.0 --version | sed -n 's/^GStreamer //p' | head -1)"
    echo "imagemagick=$(convert-im6.q16 -version | sed -n '1s/^Version: ImageMagick \([^ ]*\).*/\1/p')"
    echo "vips=$(vips --version | sed 's/^vips-//')"
    echo "ffmpeg=$(ffmpeg -version | sed -n '1s/^ffmpeg version \([^ ]*\).*/\1/p')"
    echo "libjpeg-turbo=$(dpkg-query -W -f='${Version}' libjpeg-turbo-progs 2>/dev/null || echo '?')"
    echo "photos=$photos_n rounds=$rounds blend_rounds=$blend_rounds blend_frames=$blend_frames stream_seconds=$STREAM_SECONDS"
} >"$out/env.txt"

# The photos only for the parts that use them (BENCH_ONLY=clip needs none).
case " $only " in *" batch "*|*" resize "*|*" coefficients "*|*" heic "*|*" shards "*)
    say "corpus: $photos_n photos of 12 MP (made once, kept in $photos)"
    "$here/make-photos.sh" "$photos_n" "$photos" >&2
esac
"$here/batch-tool.sh" assets "$assets" >&2

rm -f "$out/blend.json" "$out/batch.json" "$out/stream.json" "$out/batch-checks.json" "$out/resize.json" "$out/resize-checks.json" \
    "$out/coefficients.json" "$out/coefficients-checks.json" "$out/clip.json" "$out/clip-checks.txt"
rm -f "$out/heic.json" "$out/heic-checks.json"

case " $only " in *" blend "*)
    say "1/3 blend cost per frame: camstamp-bench vs gst-launch textoverlay + gdkpixbufoverlay ($blend_rounds rounds)"
    measure --label blend --out "$out/blend.json" --rounds "$blend_rounds" --warmup 1 --capture \
        "camstamp=$("$here/live-cmd.sh" blend-camstamp "$assets" "$blend_frames")" \
        "gst-none=$("$here/live-cmd.sh" blend-none "$assets" "$blend_frames")" \
        "gst-marks=$("$here/live-cmd.sh" blend-marks "$assets" "$blend_frames")"
esac

case " $only " in *" batch "*)
    say "2/3 batch: $photos_n photos, 2 at a time, each tool $rounds times interleaved"
    mkdir -p "$out/batch"
    tools=(camstamp djpeg-cjpeg imagemagick vips ffmpeg gst-launch)
    specs=()
    for tool in "${tools[@]}"; do
        specs+=("$tool=\"$here/batch-tool.sh\" $tool \"$photos\" \"$out/batch/$tool\" \"$assets\"")
    done
    measure --label batch --out "$out/batch.json" --rounds "$rounds" --warmup 1 \
        --prep "rm -rf \"$out/batch/\$BENCH_NAME\"" \
        --post "ls \"$out/batch/\$BENCH_NAME\" | grep -c '\\.jpg\$' || true" "${specs[@]}"
    # What each tool wrote in its last run: displayed size, EXIF kept, size on disk.
    exiftool -q -json -n -FileName -FileSize -ImageWidth -ImageHeight -Orientation -Make -Model \
        -DateTimeOriginal -YCbCrSubSampling -Directory "${tools[@]/#/$out/batch/}" >"$out/batch-checks.json" 2>>"$log" || true
esac

case " $only " in *" stream "*)
    say "3/3 stream CPU per frame and peak memory: 1080p30 for ${STREAM_SECONDS}s, $rounds rounds"
    mkdir -p "$out/stream"
    measure --label stream --out "$out/stream.json" --rounds "$rounds" --warmup 0 \
        --prep "rm -f \"$out/stream/\$BENCH_NAME.mp4\"" \
        --post "ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 \"$out/stream/\$BENCH_NAME.mp4\"" \
        "camstamp=$("$here/live-cmd.sh" stream-camstamp "$assets" "$out/stream/camstamp.mp4")" \
        "gst-marks=$("$here/live-cmd.sh" stream-marks "$assets" "$out/stream/gst-marks.mp4")" \
        "gst-none=$("$here/live-cmd.sh" stream-none "$assets" "$out/stream/gst-none.mp4")"
esac

case " $only " in *" resize "*)
    say "4 --max-size 2048: camstamp vs vipsthumbnail, $photos_n photos, 2 at a time, $rounds rounds"
    mkdir -p "$out/resize"
    specs=()
    for tool in camstamp-2048 vipsthumbnail-2048; do
        specs+=("$tool=\"$here/batch-tool.sh\" $tool \"$photos\" \"$out/resize/$tool\" \"$assets\"")
    done
    measure --label resize --out "$out/resize.json" --rounds "$rounds" --warmup 1 \
        --prep "rm -rf \"$out/resize/\$BENCH_NAME\"" \
        --post "ls \"$out/resize/\$BENCH_NAME\" | grep -c '\\.jpg\$' || true" "${specs[@]}"
    exiftool -q -json -n -FileName -ImageWidth -ImageHeight -Directory \
        "$out/resize/camstamp-2048" "$out/resize/vipsthumbnail-2048" >"$out/resize-checks.json" 2>>"$log" || true
esac

case " $only " in *" clip "*)
    say "9 video file: a 1080p30 60 s clip with AAC, camstamp batch vs ffmpeg drawtext+overlay -c:a copy, $rounds rounds"
    clip="$out/clip/source.mp4"
    "$here/clip-cmd.sh" make "$assets" "$clip" >&2
    mkdir -p "$out/clip/camstamp" "$out/clip/ffmpeg"
    # One warm-up round: the first of the two to run after other work pays ~0.9 s of CPU (3 %)
    # clearing fresh huge pages for x264 in this VM (perf: clear_page_erms, 922 samples against
    # 13-66 for the same command run again right after), whichever tool it is.
    measure --label clip --out "$out/clip.json" --rounds "$rounds" --warmup 1 \
        --prep "rm -f \"$out/clip/\$BENCH_NAME/source.mp4\"" \
        --post "ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 \"$out/clip/\$BENCH_NAME/source.mp4\"" \
        "camstamp=$(OUTDIR="$out/clip/camstamp" "$here/clip-cmd.sh" camstamp "$assets" "$clip")" \
        "ffmpeg=$(OUTDIR="$out/clip/ffmpeg" "$here/clip-cmd.sh" ffmpeg "$assets" "$clip")"
    # What each wrote: streams, size, whether the audio packets are the source's, and a digest of
    # the x264 settings it was encoded with (the same on both sides, or the race is not fair).
    for who in source camstamp ffmpeg; do
        file=$clip; [ $who = source ] || file="$out/clip/$who/source.mp4"
        printf '%s %s %s %s %s\n' "$who" \
            "$(ffprobe -v error -show_entries stream=codec_name,pix_fmt -of csv=p=0 "$file" 2>>"$log" | tr '\n' ' ' | tr -s ' ' | tr ' ' '/')" \
            "$(stat -c %s "$file" 2>/dev/null || echo 0)" \
            "$(ffmpeg -v error -i "$file" -map 0:a -c copy -f md5 - 2>>"$log" | sed 's/^MD5=//')" \
            "$("$here/clip-cmd.sh" x264 "$assets" "$file" | md5sum | cut -c1-12)"
        "$here/clip-cmd.sh" x264 "$assets" "$file" | sed "s/^/$who x264: /" >>"$log"
    done >"$out/clip-checks.txt"
esac

case " $only " in *" rtsp "*)
    say "8 RTSP: camstamp's CPU serving 1 and 4 viewers from one encode"
    rm -f "$out/rtsp.md"
    "$here/rtsp-viewers.sh" "$out" >&2
esac

case " $only " in *" coefficients "*)
    # ImageMagick wrote the corpus with optimal Huffman tables, which lack codes a changed block
    # may need: tier 2 codes such blocks as the nearest the tables can say, within a bound (the
    # paths column of the -optimised rows says whether any fell back to tier 1).
    # Cameras write the standard tables: the same photos with those (jpegtran, lossless: the same
    # coefficients, so the same pixels) are part 5's corpus.
    standard="$out/photos-standard"
    if [ ! -f "$standard/.made" ] || [ "$(cat "$standard/.made")" != "$(cat "$photos/.made") + jpegtran" ]; then
        rm -rf "$standard"
        mkdir -p "$standard"
        for photo in "$photos"/photo-*.jpg; do jpegtran -copy all -outfile "$standard/${photo##*/}" "$photo"; done
        echo "$(cat "$photos/.made") + jpegtran" >"$standard/.made"
    fi
    cp "$photos/photos.tsv" "$standard/photos.tsv"   # the displayed sizes, for the peers' marks
    say "5 stamped without re-encoding: camstamp spliced (tier 2) vs tier 1 vs --reencode vs djpeg | cjpeg, $photos_n photos, 2 at a time, $rounds rounds"
    mkdir -p "$out/coefficients"
    # Each tool on both corpora: the standard tables, and the optimised ones as ImageMagick wrote
    # them (the rows ending in -optimised); the bounds (jpegtran, the Huffman-only pass) too.
    specs=()
    for tool in camstamp-spliced camstamp-spliced-box camstamp-coefficients camstamp-coefficients-box \
        camstamp-reencode djpeg-cjpeg jpegtran huffman-pass; do
        specs+=("$tool=\"$here/batch-tool.sh\" $tool \"$standard\" \"$out/coefficients/$tool\" \"$assets\"")
        specs+=("$tool-optimised=\"$here/batch-tool.sh\" $tool \"$photos\" \"$out/coefficients/$tool-optimised\" \"$assets\"")
    done
    # Tier 2 with --sign (issue 24), on the standard tables only: beside camstamp-spliced.
    specs+=("camstamp-spliced-signed=\"$here/batch-tool.sh\" camstamp-spliced-signed \"$standard\" \"$out/coefficients/camstamp-spliced-signed\" \"$assets\"")
    measure --label coefficients --out "$out/coefficients.json" --rounds "$rounds" --warmup 1 \
        --prep "rm -rf \"$out/coefficients/\$BENCH_NAME\"" \
        --post "ls \"$out/coefficients/\$BENCH_NAME\" | grep -c '\\.jpg\$' || true" "${specs[@]}"
    exiftool -q -json -n -FileName -FileSize -ImageWidth -ImageHeight -Orientation -Make -DateTimeOriginal \
        -YCbCrSubSampling -Directory "$standard" "$out/coefficients/camstamp-spliced" "$out/coefficients/camstamp-coefficients" \
        "$out/coefficients/camstamp-reencode" >"$out/coefficients-checks.json" 2>>"$log" || true
esac

case " $only " in *" heic "*)
    say "6 HEIC 12 MP: camstamp vs heif-convert + ImageMagick, $heic_n photos, 2 at a time, $rounds rounds"
    for tool in heif-enc heif-convert; do command -v "$tool" >/dev/null || { say "missing $tool (Debian libheif-examples)"; exit 2; }; done
    # Upright HEICs (as a phone's, whose turn is in irot, which libheif applies), made once.
    heic="$out/photos-heic"
    if [ "$(cat "$heic/.made" 2>/dev/null)" != "heic v1: $heic_n" ]; then
        rm -rf "$heic" && mkdir -p "$heic"
        for jpg in $(ls "$photos"/photo-*.jpg | head -n "$heic_n"); do
            stem=$(basename "$jpg" .jpg)
            convert-im6.q16 "$jpg" -auto-orient "$heic/$stem.upright.jpg"
            heif-enc -q 80 "$heic/$stem.upright.jpg" -o "$heic/$stem.heic" >/dev/null
            rm -f "$heic/$stem.upright.jpg"
        done
        echo "heic v1: $heic_n" >"$heic/.made"
    fi
    mkdir -p "$out/heic"
    specs=()
    for tool in camstamp-heic-jpg heif-convert-magick camstamp-heic-keep; do
        specs+=("$tool=\"$here/batch-tool.sh\" $tool \"$heic\" \"$out/heic/$tool\" \"$assets\"")
    done
    measure --label heic --out "$out/heic.json" --rounds "$rounds" --warmup 1 \
        --prep "rm -rf \"$out/heic/\$BENCH_NAME\"" \
        --post "ls \"$out/heic/\$BENCH_NAME\" | grep -c -E '\\.(jpg|heic)\$' || true" "${specs[@]}"
    exiftool -q -json -n -FileName -FileType -FileSize -ImageWidth -ImageHeight -Make -DateTimeOriginal -Directory \
        "$out/heic/camstamp-heic-jpg" "$out/heic/heif-convert-magick" "$out/heic/camstamp-heic-keep" \
        >"$out/heic-checks.json" 2>>"$log" || true
esac

rm -f "$out/invisible.md"
case " $only " in *" shards "*)
    say "10 shards: $photos_n photos as 1 process of --jobs 2, 2 and 4 shards of --jobs 1; planning ${SHARD_NAMES:-100000} names"
    rm -f "$out/shards.md"
    "$here/shards.sh" "$out" "$photos" >&2
esac

case " $only " in *" invisible "*)
    say "10 invisible mark: embedding CPU on one thread, 12 MP (the 20-photo robustness set is WatermarkTests)"
    "$CAMSTAMP_BENCH" invisible 4000 3000 5 | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print("| invisible mark, 12 MP, one thread | CPU s per MP |\n| --- | --- |")
print("| packed RGBx | %.4f |\n| I420 (Cb plane) | %.4f |" % (r["rgbx_cpu_s_per_mp"], r["i420_cpu_s_per_mp"]))
' >"$out/invisible.md"
esac

rm -f "$out/preview.md"
case " $only " in *" preview "*)
    say "7 camera preview CPU per frame: 640x480@30 with 0, 1, 4 viewers and the capture alone"
    python3 "$here/lib/preview.py" "$out/preview.json" >"$out/preview.md"
esac
rm -f "$out/viewfinder.md"
case " $only " in *" viewfinder "*)
    say "7b viewfinder latency (1 and 4 viewers), press to file and the shot's frame: 640x480@30"
    python3 "$here/lib/viewfinder.py" "$out/viewfinder.json" >"$out/viewfinder.md"
esac
rm -f "$out/preview-latency.md" "$out"/preview-latency-*.png
case " $only " in *" preview-latency "*)
    say "7c the page's preview, glass to page and bits: WebRTC and MJPEG in Chromium, 640x480 and 1280x720 at 30 fps"
    # Debian's Chromium, its driver and Selenium (make deps), as the page tests use them.
    for tool in /usr/bin/chromium /usr/bin/chromedriver; do
        [ -x "$tool" ] || { say "missing $tool (make deps)"; exit 2; }
    done
    /usr/bin/python3 -c 'import selenium' 2>/dev/null || { say "missing python3-selenium (make deps)"; exit 2; }
    /usr/bin/python3 "$here/lib/preview_latency.py" "$out/preview-latency.json" >"$out/preview-latency.md"
esac

: >"$out/results.md"
case " $only " in *" blend "*|*" batch "*|*" stream "*|*" resize "*|*" coefficients "*|*" heic "*|*" clip "*)
    python3 "$here/lib/report.py" "$out" --photos "$photos" --blend-frames "$blend_frames" \
        --stream-seconds "$STREAM_SECONDS" --elapsed $(( $(date +%s) - started )) >"$out/results.md"
esac
[ -s "$out/preview.md" ] && { echo; cat "$out/preview.md"; } >>"$out/results.md"
[ -s "$out/viewfinder.md" ] && { echo; cat "$out/viewfinder.md"; } >>"$out/results.md"
[ -s "$out/preview-latency.md" ] && { echo; cat "$out/preview-latency.md"; } >>"$out/results.md"
[ -f "$out/rtsp.md" ] && { echo; cat "$out/rtsp.md"; } >>"$out/results.md"
[ -f "$out/invisible.md" ] && { echo; cat "$out/invisible.md"; } >>"$out/results.md"
[ -f "$out/shards.md" ] && { echo; cat "$out/shards.md"; } >>"$out/results.md"
cat "$out/results.md"
say "tables in $out/results.md, raw runs in $out/*.json, tool output in $log"
