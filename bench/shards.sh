#!/usr/bin/env bash
# bench/shards.sh OUT_DIR PHOTOS   part 10: does a batch scale when split with --shard? (issue 35)
#
# The part 2 photos (12 MP, part 2's mark: --text T --preset logo --quality 90) stamped three ways,
# interleaved round after round: one process of --jobs 2; 2 shards of --jobs 1 at once (the same
# 2 workers, as 2 processes); 4 shards of --jobs 1 at once (oversubscribed: 4 workers on 2 cores).
# Photos per second is the photos over the wall time of the whole set. Then the listing: a tree
# of 100,000 names in 100 folders (hard links to two small JPEG headers: the listing cost alone),
# planned by `--dry-run --shard 1/4` with the walk and with `--list` (a `find -print0` made once),
# and with strace's count of stat and open calls where strace is installed.
# Writes OUT_DIR/shards.md (Markdown) and OUT_DIR/shards.tsv (every run).
#
# Env: CAMSTAMP (binary), BENCH_ROUNDS (default 3), SHARD_NAMES (default 100000), SHARD_COPIES
# (names per photo in the corpus, default 6: 192 names from 32 photos).
set -euo pipefail

out=${1:?usage: shards.sh OUT_DIR PHOTOS}
photos=${2:?PHOTOS}
rounds=${BENCH_ROUNDS:-3}
names=${SHARD_NAMES:-100000}
work="$out/shards"
rm -rf "$work"
mkdir -p "$work"
# The corpus: each photo under SHARD_COPIES names (hard links), so the hash split is as even as a
# real corpus's (32 names in 4 shards split 11/9/7/5 and the largest sets the wall time).
copies=${SHARD_COPIES:-6}
corpus="$work/corpus"
mkdir -p "$corpus"
for photo in "$photos"/photo-*.jpg; do
    for (( c = 1; c <= copies; c++ )); do ln "$photo" "$corpus/$(basename "$photo" .jpg)-$c.jpg"; done
done
photos=$corpus
n=$(ls "$photos"/photo-*.jpg | wc -l)
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { print b - a }'; }
mark=(--text "© camstamp bench" --preset logo --quality 90)

# run CONFIG: one timed set; prints its wall seconds.
run() {
    local config=$1 dest="$work/out-$1" start end k pids=()
    rm -rf "$dest"
    start=$(now)
    case $config in
        one) "$CAMSTAMP" batch "$photos" -o "$dest" "${mark[@]}" --jobs 2 -q 2>>"$work/log" ;;
        two | four)
            local count=2
            [ "$config" = four ] && count=4
            for (( k = 1; k <= count; k++ )); do
                "$CAMSTAMP" batch "$photos" -o "$dest" "${mark[@]}" --jobs 1 --shard "$k/$count" -q 2>>"$work/log" &
                pids+=($!)
            done
            for pid in "${pids[@]}"; do wait "$pid"; done ;;
    esac
    end=$(now)
    local written
    written=$(find "$dest" -name '*.jpg' | wc -l)
    [ "$written" -eq "$n" ] || { echo "shards: $config wrote $written of $n photos" >&2; exit 1; }
    elapsed "$start" "$end"
}

: >"$work/runs.tsv"
run one >/dev/null   # warm-up: the page cache holds the photos
configs=(one two four)
for (( r = 0; r < rounds; r++ )); do
    for (( i = 0; i < 3; i++ )); do
        config=${configs[$(( (i + r) % 3 ))]}
        printf '%s\t%s\t%s\n' "$r" "$config" "$(run "$config")" >>"$work/runs.tsv"
    done
done

# The listing: NAMES hard links (at most 60,000 to one file: ext4 allows 65,000).
tree="$work/tree"
mkdir -p "$tree"
printf '\377\330\377\340' | head -c 64 >"$work/proto-0.jpg"
python3 - "$tree" "$work" "$names" <<'PY'
import os, sys
tree, work, names = sys.argv[1], sys.argv[2], int(sys.argv[3])
protos = []
for i in range(names // 60000 + 1):
    path = f"{work}/proto-{i}.jpg"
    if not os.path.exists(path):
        open(path, "wb").write(bytes([0xFF, 0xD8, 0xFF, 0xE0]) + bytes(60))
    protos.append(path)
folders = 100
for n in range(names):
    folder = f"{tree}/d{n % folders:03}"
    if n < folders:
        os.makedirs(folder, exist_ok=True)
    os.link(protos[n // 60000], f"{folder}/p{n:06}.jpg")
PY
(cd "$tree" && find . -type f -print0) >"$work/tree.list"
planning=("$CAMSTAMP" batch "$tree" -o "$work/tree-out" --recursive --dry-run --shard 1/4 --text x)
: >"$work/listing.tsv"
for (( r = 0; r < rounds; r++ )); do
    for how in walk list; do
        args=()
        [ "$how" = list ] && args=(--list "$work/tree.list")
        start=$(now); "${planning[@]}" "${args[@]}" >/dev/null 2>>"$work/log"; end=$(now)
        printf '%s\t%s\n' "$how" "$(elapsed "$start" "$end")" >>"$work/listing.tsv"
    done
done
calls=""
if command -v strace >/dev/null; then
    for how in walk list; do
        args=()
        [ "$how" = list ] && args=(--list "$work/tree.list")
        strace -f -c -o "$work/strace-$how.txt" "${planning[@]}" "${args[@]}" >/dev/null 2>>"$work/log"
        stats=$(awk '$NF ~ /^(newfstatat|fstatat64|statx|stat|lstat|fstat)$/ { s += $4 } END { print s + 0 }' "$work/strace-$how.txt")
        opens=$(awk '$NF == "openat" { print $4 }' "$work/strace-$how.txt")
        calls+="$how ${stats} ${opens:-0};"
    done
fi

split=""
for count in 2 4; do
    largest=0
    for (( k = 1; k <= count; k++ )); do
        mine=$("$CAMSTAMP" batch "$photos" -o "$work/split" "${mark[@]}" --dry-run --shard "$k/$count" 2>/dev/null | grep -c ' -> ' || true)
        if (( mine > largest )); then largest=$mine; fi
    done
    split+="$count:$largest;"
done

python3 - "$work" "$n" "$names" "$calls" "$split" "$copies" >"$out/shards.md" <<'PY'
import statistics, sys
work, n, names, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
largest = dict(tuple(map(int, part.split(":"))) for part in sys.argv[5].split(";") if part)
copies = int(sys.argv[6])
runs = {}
for line in open(f"{work}/runs.tsv"):
    r, config, wall = line.split("\t")
    runs.setdefault(int(r), {})[config] = float(wall)
def ratio(config):
    # The throughput ratio within each round: one process's wall over this configuration's.
    values = [r["one"] / r[config] for r in runs.values()]
    return statistics.median(values), min(values), max(values)
print("## 10. Shards (`--shard K/N`, issue 35)\n")
print(f"{n} photos of 12 MP (the part 2 corpus, each photo under {copies} names), part 2's mark (`--text T --preset logo --quality 90`), {len(runs)} interleaved rounds.\n")
print("| configuration | photos/s (median) | × one process of `--jobs 2` | largest shard (even: ideal) | target |")
print("|---|---|---|---|---|")
labels = {"one": "1 process, `--jobs 2`", "two": "2 shards of `--jobs 1` at once", "four": "4 shards of `--jobs 1` at once (oversubscribed)"}
targets = {"one": "", "two": "≈ 1 (≥ 0.95)", "four": "≥ 0.90"}
for config in ("one", "two", "four"):
    wall = statistics.median(r[config] for r in runs.values())
    if config == "one":
        cell = "1"
    else:
        med, lo, hi = ratio(config)
        good = med >= (0.95 if config == "two" else 0.90)
        cell = f"{med:.2f} ({lo:.2f}–{hi:.2f}) {'✅' if good else '❌'}"
    count = {"one": 1, "two": 2, "four": 4}[config]
    share = "—" if count == 1 else f"{largest[count]} of {n} ({n / count:.0f})"
    print(f"| {labels[config]} | {n / wall:.2f} | {cell} | {share} | {targets[config]} |")
listing = {}
for line in open(f"{work}/listing.tsv"):
    how, wall = line.split("\t")
    listing.setdefault(how, []).append(float(wall))
counted = {c.split()[0]: c.split()[1:] for c in calls.split(";") if c.strip()}
print(f"\nPlanning shard 1/4 of {names:,} names in 100 folders (`batch --dry-run --recursive --shard 1/4`), median of {len(listing['walk'])}:\n")
print("| listing | seconds | µs a name | stat calls | open calls |")
print("|---|---|---|---|---|")
for how, label in (("walk", "the walk of the tree (every shard lists everything)"), ("list", "`--list FILE` (find -print0, made once)")):
    wall = statistics.median(listing[how])
    stats, opens = counted.get(how, ["n/a (no strace)", "n/a"])
    print(f"| {label} | {wall:.2f} | {wall / names * 1e6:.0f} | {stats} | {opens} |")
PY
rm -rf "$tree" "$work"/out-* "$work/tree-out" "$corpus"
