#!/usr/bin/env bash
# bench/batch-tool.sh assets ASSETS                 logo PNGs and the pre-rendered text, made once
# bench/batch-tool.sh TOOL PHOTOS OUT ASSETS        mark every photo of PHOTOS into OUT with TOOL
#
# TOOL: camstamp | djpeg-cjpeg | imagemagick | vips | ffmpeg | gst-launch
#       camstamp-2048 | vipsthumbnail-2048   (part 4: shrink to a 2048 px long side)
#       camstamp-spliced | camstamp-coefficients | camstamp-reencode   (part 5: stamped with the
#       entropy-coded data spliced (tier 2, the default), in the DCT coefficients by libjpeg alone
#       (tier 1, CAMSTAMP_SPLICE=0), or re-encoded; camstamp-spliced-box and
#       camstamp-coefficients-box with a solid-box preset), jpegtran and huffman-pass (its bounds)
#       camstamp-spliced-signed   (part 5: tier 2 with --sign, keys from `camstamp keys new` in ASSETS)
#       camstamp-heic-jpg | camstamp-heic-keep | heif-convert-magick   (part 6: HEIC photos)
# Env: CAMSTAMP (the binary), JOBS (photos at a time, default 2), MARK_TEXT.
#
# The mark is camstamp's `--text T --preset logo` on a photo, redone with each peer:
#   text  T, Noto Sans Regular, em = 4% of the short side, white with a 70% black outline of 0.25% of
#         the short side, bottom-right, 3% of the short side from both edges
#   logo  presets/logos/camstamp.svg, 16% of the short side wide, 85% opacity, top-left, same margin
#   JPEG out at quality 90, 4:2:0, EXIF Orientation applied.
# All photos here are 4000x3000 stored, so the short side is 3000 for every one: text em 120 px,
# outline 7.5 px, margin 90 px, logo 480x400. Only the position of the text differs between
# landscape and portrait photos; it comes from photos.tsv (the displayed size).
#
# The peers run one process per photo, JOBS at a time, each single-threaded. camstamp runs once
# with --jobs JOBS. djpeg | cjpeg decodes and re-encodes with no mark, no rotation, no EXIF: the floor.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
text=${MARK_TEXT:-© 2026 Example Studio}
jobs=${JOBS:-2}
magick=$(command -v convert-im6.q16 || command -v convert)
font="$repo/fonts/NotoSans-Regular.ttf"
export MAGICK_THREAD_LIMIT=1 VIPS_CONCURRENCY=1 GST_DEBUG=0

short=3000 margin=90 em=120 logo_w=480 logo_h=400

if [ "${1:-}" = assets ]; then
    assets=${2:?assets DIR}
    mkdir -p "$assets"
    # The logo as a raster at the size camstamp draws it, once plain and once with 85% opacity baked
    # in (for tools that cannot scale an overlay's alpha on the command line).
    vips thumbnail "$repo/presets/logos/camstamp.svg" "$assets/logo-$logo_w.png" "$logo_w" --height "$logo_h" --size force
    vips linear "$assets/logo-$logo_w.png" "$assets/logo-$logo_w-a85.png" "1 1 1 0.85" "0 0 0 0" --uchar
    # 16% of a 1080p frame's short side: for the live benchmarks.
    vips thumbnail "$repo/presets/logos/camstamp.svg" "$assets/logo-173.png" 173 --height 144 --size force
    # The text drawn once with its outline, trimmed, for vips (which cannot outline text itself).
    # (Outline as ImageMagick does it below: a stroke twice as wide, then the fill drawn over it.)
    "$magick" -size 2400x300 xc:none -font "$font" -pointsize "$em" -gravity center \
        -fill 'rgba(0,0,0,0.7)' -stroke 'rgba(0,0,0,0.7)' -strokewidth 15 -annotate +0+0 "$text" \
        -fill white -stroke none -annotate +0+0 "$text" -trim +repage "$assets/text-$em.png"
    printf '%s\t%s\n' "$(vipsheader -f width "$assets/text-$em.png")" "$(vipsheader -f height "$assets/text-$em.png")" \
        >"$assets/text-$em.size"
    # Part 5's solid box: white text on an opaque black box, the watermark style whose edges need
    # the largest DCT values (the Huffman codes an optimised table is most likely to lack).
    cat >"$assets/solidbox.json" <<'JSON'
{"name": "solidbox", "description": "White text on an opaque black box",
 "marks": [{"text": "© 2026 Example Studio · 2026-12-01 19:00", "size": "3%", "color": "#FFFFFF",
   "outline": false, "box": {"color": "#000000FF", "padding": "1%"}, "anchor": "bottom-right", "margin": "3%"}]}
JSON
    exit 0
fi

tool=${1:?usage: batch-tool.sh TOOL PHOTOS OUT ASSETS}
photos=${2:?PHOTOS}
out=${3:?OUT}
assets=${4:?ASSETS}
mkdir -p "$out"

if [ "$tool" = camstamp ]; then
    exec "${CAMSTAMP:?set CAMSTAMP to the camstamp binary}" batch "$photos"/photo-*.jpg -o "$out" \
        --text "$text" --preset logo --jobs "$jobs" --quality 90
fi
# Part 5: the JPEG stamped without re-encoding (camstamp's default for JPEG to JPEG at the
# source's own quality: no --quality): spliced (tier 2), tier 1 alone, and re-encoding (--reencode).
# The --json lines go to OUT/paths.jsonl: which path each photo took.
if [ "$tool" = camstamp-spliced-signed ]; then
    keys="$assets/keys"
    [ -f "$keys/key.pem" ] || "${CAMSTAMP:?set CAMSTAMP to the camstamp binary}" keys new "$keys" --name "camstamp bench" >/dev/null
    exec "$CAMSTAMP" batch "$photos"/photo-*.jpg -o "$out" --text "$text" --preset logo --jobs "$jobs" --json \
        --sign "$keys/chain.pem" --sign-key "$keys/key.pem" >"$out/paths.jsonl"
fi

# camstamp-*-box: the solid-box preset instead of the text and logo. jpegtran (a full entropy decode
# and encode, the coefficient path's bound) and djpeg -scale 1/8 (a Huffman-only pass: the scan
# decoded, DC only, the splice walk's bound) are the bounds, one process per photo.
case $tool in camstamp-spliced | camstamp-coefficients | camstamp-reencode | camstamp-spliced-box | camstamp-coefficients-box)
    extra=(--text "$text" --preset logo)
    case $tool in *-box) extra=(--preset "$assets/solidbox.json") ;; esac
    case $tool in camstamp-reencode) extra+=(--reencode) ;; camstamp-coefficients*) export CAMSTAMP_SPLICE=0 ;; esac
    exec "${CAMSTAMP:?set CAMSTAMP to the camstamp binary}" batch "$photos"/photo-*.jpg -o "$out" \
        --jobs "$jobs" --json "${extra[@]}" >"$out/paths.jsonl"
esac
if [ "$tool" = jpegtran ]; then
    printf '%s\0' "$photos"/photo-*.jpg | xargs -0 -n 1 -P "$jobs" sh -c \
        'jpegtran -copy all -outfile "$0/$(basename "$1")" "$1"' "$out"
    exit 0
fi
if [ "$tool" = huffman-pass ]; then
    printf '%s\0' "$photos"/photo-*.jpg | xargs -0 -n 1 -P "$jobs" sh -c 'djpeg -scale 1/8 -outfile /dev/null "$1"' sh
    exit 0
fi
# Part 6: HEIC 12 MP photos (PHOTOS holds photo-*.heic). camstamp reads them with libheif and writes
# a marked JPEG (--format jpg) or HEIC again (--format keep, x265); the peers convert with
# heif-convert (JPEG, its default quality 90) and mark that with ImageMagick as above.
if [ "$tool" = camstamp-heic-jpg ] || [ "$tool" = camstamp-heic-keep ]; then
    exec "${CAMSTAMP:?set CAMSTAMP to the camstamp binary}" batch "$photos"/photo-*.heic -o "$out" \
        --text "$text" --preset logo --jobs "$jobs" --quality 90 --format "${tool#camstamp-heic-}"
fi
if [ "$tool" = heif-convert-magick ]; then
    # xargs appends the photo last: $1 OUT, $2 convert, $3 logo, $4 margin, $5 font, $6 em, $7 text, $8 photo.
    printf '%s\0' "$photos"/photo-*.heic | xargs -0 -n 1 -P "$jobs" sh -c '
        stem=$(basename "$8" .heic); tmp="$1/$stem.heif-convert.jpg"
        heif-convert "$8" "$tmp" >/dev/null &&
        "$2" "$tmp" -auto-orient \( "$3" -channel A -evaluate multiply 0.85 +channel \) \
            -gravity northwest -geometry "+$4+$4" -composite -gravity southeast -font "$5" -pointsize "$6" \
            -fill "rgba(0,0,0,0.7)" -stroke "rgba(0,0,0,0.7)" -strokewidth 15 -annotate "+$4+$4" "$7" \
            -fill white -stroke none -annotate "+$4+$4" "$7" -quality 90 -sampling-factor 2x2 "$1/$stem.jpg" &&
        rm -f "$tmp"' sh-heic "$out" "$magick" "$assets/logo-$logo_w.png" "$margin" "$font" "$em" "$text"
    exit 0
fi
# Part 4: camstamp's --max-size 2048 (Lanczos3, and the marks) against vipsthumbnail (shrink-on-load
# in libjpeg, then Lanczos3; no marks), one single-threaded vipsthumbnail per photo, JOBS at a time.
if [ "$tool" = camstamp-2048 ]; then
    exec "${CAMSTAMP:?set CAMSTAMP to the camstamp binary}" batch "$photos"/photo-*.jpg -o "$out" \
        --text "$text" --preset logo --jobs "$jobs" --quality 90 --max-size 2048
fi
if [ "$tool" = vipsthumbnail-2048 ]; then
    printf '%s\0' "$photos"/photo-*.jpg | xargs -0 -n 1 -P "$jobs" sh -c \
        'vipsthumbnail "$1" --size 2048 -o "$0/%s.jpg[Q=90,subsample-mode=on]"' "$out"
    exit 0
fi

# One NUL-separated argument list per photo, all of the same length, then xargs -P.
list=$(mktemp)
trap 'rm -f "$list"' EXIT
read -r text_w text_h <"$assets/text-$em.size"
per_photo=0
while IFS=$'\t' read -r name orientation width height; do
    [ "$name" = name ] && continue
    src="$photos/$name" dst="$out/$name"
    case $tool in
        djpeg-cjpeg)
            printf '%s\0' "$src" "$dst" ;;
        imagemagick)
            printf '%s\0' "$src" -auto-orient \
                '(' "$assets/logo-$logo_w.png" -channel A -evaluate multiply 0.85 +channel ')' \
                -gravity northwest -geometry "+$margin+$margin" -composite \
                -gravity southeast -font "$font" -pointsize "$em" \
                -fill 'rgba(0,0,0,0.7)' -stroke 'rgba(0,0,0,0.7)' -strokewidth 15 -annotate "+$margin+$margin" "$text" \
                -fill white -stroke none -annotate "+$margin+$margin" "$text" \
                -quality 90 -sampling-factor 2x2 "$dst" ;;
        vips)
            printf '%s\0' composite "$src[autorotate] $assets/logo-$logo_w-a85.png $assets/text-$em.png" \
                "$dst[Q=90,subsample-mode=on]" "2 2" \
                --x "$margin $(( width - margin - text_w ))" --y "$margin $(( height - margin - text_h ))" ;;
        ffmpeg)
            printf '%s\0' -nostdin -v error -y -threads 1 -filter_threads 1 -filter_complex_threads 1 \
                -i "$src" -i "$assets/logo-$logo_w.png" -filter_complex \
                "[1:v]format=rgba,colorchannelmixer=aa=0.85[logo];[0:v][logo]overlay=$margin:$margin,drawtext=fontfile=$font:text='$text':fontsize=$em:fontcolor=white:borderw=7:bordercolor=black@0.7:x=w-tw-$margin:y=h-th-$margin" \
                -threads 1 -q:v 2 "$dst" ;;
        gst-launch)
            # jpegparse reads the EXIF orientation into a tag that videoflip obeys; textoverlay's
            # font size is in points at 96 dpi (90 pt = 120 px).
            printf '%s\0' filesrc "location=$src" ! jpegparse ! jpegdec ! videoflip video-direction=auto ! \
                textoverlay "text=$text" "font-desc=Noto Sans $(( em * 3 / 4 ))" auto-resize=false wrap-mode=none \
                halignment=right valignment=bottom "xpad=$margin" "ypad=$margin" draw-shadow=false draw-outline=true ! \
                gdkpixbufoverlay "location=$assets/logo-$logo_w.png" "offset-x=$margin" "offset-y=$margin" alpha=0.85 ! \
                jpegenc quality=90 ! filesink "location=$dst" ;;
        *) echo "batch-tool.sh: unknown tool '$tool'" >&2; exit 2 ;;
    esac >>"$list"
    [ "$per_photo" -eq 0 ] && per_photo=$(tr -cd '\0' <"$list" | wc -c)
done <"$photos/photos.tsv"

case $tool in
    djpeg-cjpeg) xargs -0 -n "$per_photo" -P "$jobs" sh -c 'djpeg "$0" | cjpeg -quality 90 -outfile "$1"' <"$list" ;;
    imagemagick) xargs -0 -n "$per_photo" -P "$jobs" "$magick" <"$list" ;;
    vips) xargs -0 -n "$per_photo" -P "$jobs" vips <"$list" ;;
    ffmpeg) xargs -0 -n "$per_photo" -P "$jobs" ffmpeg <"$list" ;;
    gst-launch) xargs -0 -n "$per_photo" -P "$jobs" gst-launch-1.0 -q <"$list" ;;
esac
