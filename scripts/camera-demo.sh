#!/usr/bin/env bash
# scripts/camera-demo.sh CAMSTAMP SOURCE OUTDIR: `make demo`'s camera part. Starts `camstamp camera`
# on 127.0.0.1 (a free port), lets it run for a few seconds, shoots through the HTTP API with curl,
# prints the photo's path, and stops the camera with Ctrl-C (SIGINT: exit 130, every photo written).
set -euo pipefail
camstamp=${1:?CAMSTAMP} source=${2:?SOURCE} outdir=${3:?OUTDIR}
mkdir -p "$outdir"
log=$(mktemp)
"$camstamp" camera --source "$source" --preset timestamp --preset credit --var author="camstamp demo" \
    --web 127.0.0.1:0 -o "$outdir" >"$log" 2>&1 &
pid=$!
trap 'kill -INT $pid 2>/dev/null || true; rm -f "$log"' EXIT
url=
for _ in $(seq 100); do
    url=$(grep -m1 '^http://' "$log" || true)
    [ -n "$url" ] && break
    kill -0 $pid 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { echo "camstamp: the camera printed no URL" >&2; exit 1; }
echo "camstamp: demo camera: $url (open it in a browser while the demo runs)"
sleep 3
answer=$(curl -sf -X POST "${url}api/shoot")
path=$(printf '%s' "$answer" | python3 -c 'import json, sys; print(json.load(sys.stdin)["path"])')
echo "camstamp: demo camera photo (shot through POST /api/shoot): $path"
kill -INT $pid
status=0
wait $pid || status=$?
trap 'rm -f "$log"' EXIT
[ $status -eq 130 ] || { echo "camstamp: the camera exited $status after Ctrl-C, expected 130" >&2; cat "$log" >&2; exit 1; }
