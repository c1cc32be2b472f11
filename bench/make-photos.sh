#!/usr/bin/env bash
# bench/make-photos.sh COUNT DIR
#
# Writes COUNT deterministic 12-megapixel JPEGs to DIR (photo-001.jpg ...), plus DIR/photos.tsv
# (name, EXIF orientation, displayed width and height). Every file is stored 4000x3000, quality 90,
# 4:2:0, with EXIF Make, Model, DateTimeOriginal and an Orientation that cycles 1, 6, 3, 8.
#
# The picture: a smooth field of colour (ImageMagick plasma, seeded), Gaussian sensor-like noise
# (so it compresses like a real photo, ~3 MB), a few shapes and "UP n" written at the top of the
# upright scene. The pixels are then stored turned the other way and the Orientation tag says how
# to turn them back, so a tool that ignores the tag shows "UP" somewhere other than at the top.
#
# Deterministic: ImageMagick runs single-threaded with a fixed seed per photo, exiftool writes fixed
# values. A stamp file (DIR/.made) records the recipe; an unchanged recipe is not made twice.
set -euo pipefail

count=${1:?usage: make-photos.sh COUNT DIR}
dir=${2:?usage: make-photos.sh COUNT DIR}
recipe="photos v1: count=$count 4000x3000 q90 420 orientations=1,6,3,8"
if [ -f "$dir/.made" ] && [ "$(cat "$dir/.made")" = "$recipe" ]; then
    echo "photos: $dir already holds $count photos"
    exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"

# ImageMagick 6 itself, not a wrapper that may sit earlier on PATH under the name convert.
magick=$(command -v convert-im6.q16 || command -v convert)
# The repository's own bold font, so the picture does not depend on the fonts installed.
font="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/fonts/NotoSans-Bold.ttf"
export MAGICK_THREAD_LIMIT=1 magick dir font

one_photo() {
    local i=$1
    local orientations=(1 6 3 8)
    local o=${orientations[$(( (i - 1) % 4 ))]}
    # The upright scene's size and how to turn it into the stored (landscape) pixels.
    local w=4000 h=3000 turn=0
    case $o in
        3) turn=180 ;;
        6) w=3000; h=4000; turn=-90 ;;   # viewer turns stored pixels 90° clockwise
        8) w=3000; h=4000; turn=90 ;;    # viewer turns them 90° anticlockwise
    esac
    local seed=$(( 1009 * i + 7 ))
    local short=$(( w < h ? w : h ))
    local cx=$(( w * (25 + seed % 50) / 100 )) cy=$(( h * (30 + seed % 40) / 100 ))
    local r=$(( short * (10 + seed % 12) / 100 ))
    local bx=$(( w * (10 + seed % 30) / 100 )) by=$(( h * (60 + seed % 20) / 100 ))
    local name; name=$(printf 'photo-%03d.jpg' "$i")
    "$magick" -seed "$seed" -size "$(( w / 5 ))x$(( h / 5 ))" plasma:fractal -blur 0x2 \
        -resize "${w}x${h}!" \
        -attenuate 0.6 +noise Gaussian \
        -fill 'rgba(30,60,120,0.5)' -draw "circle $cx,$cy $(( cx + r )),$cy" \
        -fill 'rgba(230,180,40,0.55)' -draw "roundrectangle $bx,$by $(( bx + w / 3 )),$(( by + h / 8 )) 40,40" \
        -font "$font" -gravity north -pointsize $(( short / 7 )) -fill white -stroke black -strokewidth 8 \
        -annotate "+0+$(( h / 25 ))" "UP $i" \
        -rotate "$turn" +repage -strip -sampling-factor 2x2 -quality 90 "$dir/$name"
    printf '%s\t%s\t%s\t%s\n' "$name" "$o" "$w" "$h" >"$dir/$name.row"
}
export -f one_photo

seq 1 "$count" | xargs -P "$(nproc)" -I{} bash -c 'one_photo {}'

{
    printf 'name\torientation\twidth\theight\n'
    cat "$dir"/photo-*.jpg.row
} >"$dir/photos.tsv"
rm -f "$dir"/photo-*.jpg.row

# All EXIF in one exiftool run: Make, Model, a capture time per photo, the Orientation.
args="$dir/.exif-args"
: >"$args"
tail -n +2 "$dir/photos.tsv" | while IFS=$'\t' read -r name o _ _; do
    i=$((10#${name//[!0-9]/}))
    {
        echo "-overwrite_original"
        echo "-Make=CamstampBench"
        echo "-Model=Synthetic 12MP"
        printf -- '-DateTimeOriginal=2026:03:%02d 10:%02d:%02d\n' $(( 1 + i % 28 )) $(( i % 60 )) $(( (i * 13) % 60 ))
        echo "-Orientation#=$o"
        echo "$dir/$name"
        echo "-execute"
    } >>"$args"
done
exiftool -q -@ "$args"
rm -f "$args"

echo "$recipe" >"$dir/.made"
echo "photos: made $count in $dir ($(du -sh "$dir" | cut -f1))"
