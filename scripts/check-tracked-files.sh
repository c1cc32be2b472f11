#!/usr/bin/env bash
# scripts/check-tracked-files.sh: fails when git tracks a file that belongs in no commit: a media
# file (image, video, audio) outside the places media lives, or a generated one (Python caches).
# Media is judged by its extension and by its content (`file --mime-type`), so neither a renamed
# recording nor a photo without an extension slips through. `make test` runs it first.
#
# Media may live in: Tests/ (fixtures, their licence beside them), docs/images/ (the pages'
# pictures) and presets/logos/ (the logos the shipped presets draw).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "camstamp: check-tracked-files: not a git checkout; no tracked files to check"
  exit 0
fi

media_extensions='jpg|jpeg|png|gif|bmp|tif|tiff|webp|heic|heif|avif|svg|ico'
media_extensions+='|mp4|m4v|mov|mkv|webm|avi|flv|ts|mts|h264|h265|hevc|y4m|yuv'
media_extensions+='|mp3|m4a|aac|wav|flac|ogg|oga|opus'

status=0
refuse() {
  echo "camstamp: $1: $2" >&2
  status=1
}

# The tracked files that exist, outside the places media may live, each once.
candidates=()
while IFS= read -r -d '' path; do
  case "$path" in
    *.pyc|*/__pycache__/*|__pycache__/*)
      refuse "$path" "a generated file is tracked; git rm --cached it (.gitignore has it)"; continue ;;
    Tests/*|docs/images/*|presets/logos/*) continue ;;
  esac
  lower=${path,,}
  if [[ "$lower" =~ \.($media_extensions)$ ]]; then
    refuse "$path" "a media file (by its extension) is tracked outside Tests/, docs/images/ and presets/logos/;\
 git rm --cached it (a picture the docs show goes in docs/images/)"
  elif [ -f "$path" ]; then
    candidates+=("$path")
  fi
done < <(git ls-files -z)

# One `file` for all of them: "PATH\0: TYPE" per line.
if [ ${#candidates[@]} -gt 0 ]; then
  while IFS= read -r -d '' path && IFS= read -r kind; do
    kind=${kind#: }
    if [[ "$kind" =~ ^(image|video|audio)/ ]]; then
      refuse "$path" "a media file ($kind) is tracked outside Tests/, docs/images/ and presets/logos/;\
 git rm --cached it (a picture the docs show goes in docs/images/)"
    fi
  done < <(file --mime-type --no-pad --print0 -- "${candidates[@]}")
fi

exit $status
