#!/usr/bin/env python3
"""Markdown tables for `make bench` from the JSON that measure.py wrote (see bench/README.md).

    report.py OUT_DIR --photos DIR --blend-frames N --stream-seconds S [--elapsed SECONDS]

Medians over the timed rounds, with (min-max). Every ratio is formed inside one round (the tools ran
back to back there) and the median of those per-round ratios is reported, so a slow minute of the
shared machine moves both sides of a ratio alike.
"""
import argparse
import json
import os
import statistics

TARGETS = {"blend": 1.0, "batch_floor": 0.77, "batch_rss_mb": 300.0, "stream": 1.0, "stream_rss_mib": 90.0, "clip": 1.0}


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def spread(xs, fmt="{:.2f}"):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "n/a"
    if len(xs) == 1:
        return fmt.format(xs[0])
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(min(xs))}–{fmt.format(max(xs))})"


def noise(runs):
    shares = [r["busy"] for r in runs if r.get("busy") is not None]
    return f"{max(shares):.0%}" if shares else "-"


def load(out, name):
    path = os.path.join(out, name)
    return json.load(open(path)) if os.path.exists(path) else None


def verdict(value, target, lower_is_better):
    if value is None:
        return "not measured"
    ok = value <= target if lower_is_better else value >= target
    return "met" if ok else "**missed**"


def failures(data):
    bad = [f"{n} (exit {r['exit']})" for n, rs in data["runs"].items() for r in rs if r["exit"] != 0]
    return f"\nRuns that failed: {', '.join(sorted(set(bad)))}.\n" if bad else ""


def blend(out, frames, summary):
    data = load(out, "blend.json")
    if not data:
        return ""
    runs = data["runs"]
    cs = []
    for r in runs["camstamp"]:
        try:
            cs.append(json.loads(r.get("stdout") or "{}"))
        except json.JSONDecodeError:
            cs.append({})
    none, marks = runs["gst-none"], runs["gst-marks"]
    added_cpu = [(m["cpu"] - n["cpu"]) / frames * 1000 for m, n in zip(marks, none)]
    added_wall = [(m["wall"] - n["wall"]) / frames * 1000 for m, n in zip(marks, none)]
    cs_cpu = [c.get("cpu_ms_mean") for c in cs]
    cs_wall = [c.get("wall_ms_mean") for c in cs]
    cs_wall_median = [c.get("wall_ms_median") for c in cs]
    ratio_cpu = [a / b for a, b in zip(cs_cpu, added_cpu) if a is not None and b > 0]
    ratio_wall = [a / b for a, b in zip(cs_wall, added_wall) if a is not None and b > 0]
    timed = cs[0].get("frames", "?") if cs else "?"
    renders = sorted({c.get("renders_timed") for c in cs})
    r = median(ratio_cpu)
    summary.append(("1. Blend, 1080p I420, credit + logo: camstamp ÷ gst-launch overlays (CPU per frame)",
                    r, ratio_cpu, "≤ 1.00", verdict(r, TARGETS["blend"], True)))
    lines = [
        "## 1. Blend cost per frame: 1920x1080 I420, `credit` + `logo`",
        "",
        f"camstamp: `camstamp-bench` times `Marker.mark` on {timed} frames after 30 warm-up frames "
        f"(overlays cached: overlay renders while timed = {renders}), one process per round. "
        f"gst-launch: {frames} frames of `videotestsrc pattern=black ! I420 1080p ! textoverlay ! gdkpixbufoverlay ! fakesink` "
        f"minus the same pipeline without the two overlays, whole-process CPU (user+sys) and wall, per frame. "
        f"{data['rounds']} rounds, medians (min–max).",
        "",
        "| what | CPU ms/frame | wall ms/frame | others' load (max) |",
        "|---|---|---|---|",
        f"| camstamp `Marker.mark` (thread CPU; wall mean, median {spread(cs_wall_median, '{:.3f}')}) "
        f"| {spread(cs_cpu, '{:.3f}')} | {spread(cs_wall, '{:.3f}')} | {noise(runs['camstamp'])} |",
        f"| gst-launch textoverlay + gdkpixbufoverlay, added | {spread(added_cpu, '{:.3f}')} "
        f"| {spread(added_wall, '{:.3f}')} | {noise(marks + none)} |",
        f"| gst-launch pipeline without overlays (reference) | {spread([n['cpu'] / frames * 1000 for n in none], '{:.3f}')} "
        f"| {spread([n['wall'] / frames * 1000 for n in none], '{:.3f}')} | |",
        f"| **ratio camstamp ÷ gst-launch** (per round) | **{spread(ratio_cpu)}** | {spread(ratio_wall)} | |",
        "",
        "Target: ratio ≤ 1.00 (camstamp no dearer than GStreamer's own overlay elements).",
    ]
    return "\n".join(lines) + "\n" + failures(data)


def displayed(entry):
    w, h = entry.get("ImageWidth"), entry.get("ImageHeight")
    if w is None or h is None:
        return None
    return (h, w) if entry.get("Orientation") in (5, 6, 7, 8) else (w, h)


def batch(out, photos_dir, summary):
    data = load(out, "batch.json")
    if not data:
        return ""
    expected = {}
    with open(os.path.join(photos_dir, "photos.tsv")) as f:
        next(f)
        for line in f:
            name, orientation, w, h = line.rstrip("\n").split("\t")
            expected[name] = (int(w), int(h))
    n = len(expected)
    checks = {}
    for entry in load(out, "batch-checks.json") or []:
        tool = os.path.basename(entry.get("Directory", "").rstrip("/"))
        checks.setdefault(tool, []).append(entry)
    runs = data["runs"]
    floor = runs.get("djpeg-cjpeg", [])
    rows = []
    cs_floor = None
    for tool in data["order"]:
        rs = runs[tool]
        rates = [n / r["wall"] for r in rs]
        vs_floor = [f["wall"] / r["wall"] for r, f in zip(rs, floor)] if floor else []
        if tool == "camstamp":
            cs_floor = vs_floor
        rss = [r["max_rss_kib"] * 1024 / 1e6 for r in rs if r.get("max_rss_kib")]
        written = sorted({int(r["units"]) for r in rs if r.get("units") is not None})
        got = checks.get(tool, [])
        upright = sum(1 for e in got if displayed(e) == expected.get(e.get("FileName")))
        exif = sum(1 for e in got if e.get("Make") == "CamstampBench" and e.get("DateTimeOriginal"))
        sub420 = sum(1 for e in got if str(e.get("YCbCrSubSampling")) == "2 2")
        size = median([e.get("FileSize") for e in got])
        rows.append(
            f"| {tool} | {spread(rates)} | {median([r['cpu'] for r in rs]) / n:.3f} "
            f"| {spread(rss, '{:.0f}')} | {spread(vs_floor) if tool != 'djpeg-cjpeg' else '1.00'} "
            f"| {'/'.join(map(str, written)) or '?'} | {upright}/{len(got)} | {exif}/{len(got)} | {sub420}/{len(got)} "
            f"| {size / 1e6 if size else 0:.2f} | {noise(rs)} |")
    ratio = median(cs_floor) if cs_floor else None
    cs_rss = [r["max_rss_kib"] * 1024 / 1e6 for r in runs.get("camstamp", []) if r.get("max_rss_kib")]
    peak = max(cs_rss) if cs_rss else None
    summary.append(("2. Batch 12 MP, --jobs 2: camstamp photos/s ÷ djpeg \\| cjpeg floor", ratio, cs_floor, "≥ 0.77",
                    verdict(ratio, TARGETS["batch_floor"], False)))
    summary.append(("2. Batch: camstamp peak memory, MB (max RSS, largest run)", peak, cs_rss, "< 300",
                    verdict(peak, TARGETS["batch_rss_mb"] - 1e-9, True)))
    lines = [
        f"## 2. Batch: {n} photos of 12 MP (4000x3000 stored, q90 4:2:0, EXIF orientations 1/6/3/8), text + logo",
        "",
        "camstamp: one `camstamp batch --text T --preset logo --jobs 2 --quality 90` over the folder. "
        "Peers: the same mark (text 4% of the short side with an outline, bottom-right; logo 16% wide at 85%, "
        "top-left; 3% margins; q90 4:2:0; EXIF orientation applied) with one process per photo, two at a time. "
        "`djpeg | cjpeg` is the floor: decode + encode, no mark, no rotation, no metadata. "
        f"{data['rounds']} rounds interleaved after a warm-up round; medians (min–max); "
        "× floor is the photos/s ratio within each round. Peak memory is GNU time's maximum resident set size "
        "of the largest single process (MB = 10⁶ bytes). The last four columns check the last run's output files.",
        "",
        "| tool | photos/s | CPU s/photo | peak memory MB | × floor | files | upright | EXIF kept | 4:2:0 | MB/photo | others' load (max) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Targets: camstamp ≥ 0.77 × floor; camstamp peak memory < 300 MB.",
    ]
    return "\n".join(lines) + "\n" + failures(data)


def resize(out, summary):
    data = load(out, "resize.json")
    if not data:
        return ""
    runs = data["runs"]
    cs, vt = runs.get("camstamp-2048", []), runs.get("vipsthumbnail-2048", [])
    checks = {}
    for entry in load(out, "resize-checks.json") or []:
        tool = os.path.basename(entry.get("Directory", "").rstrip("/"))
        checks.setdefault(tool, []).append(entry)
    ratios = [v["wall"] / c["wall"] for c, v in zip(cs, vt)]
    rows = []
    for tool in data["order"]:
        rs = runs[tool]
        n = median([r.get("units") and int(r["units"]) for r in rs]) or 1
        got = checks.get(tool, [])
        sized = sum(1 for e in got if max(e.get("ImageWidth") or 0, e.get("ImageHeight") or 0) == 2048)
        rows.append(f"| {tool} | {spread([n / r['wall'] for r in rs])} | {median([r['cpu'] for r in rs]) / n:.3f} "
                    f"| {sized}/{len(got)} | {noise(rs)} |")
    summary.append(("4. --max-size 2048: camstamp photos/s ÷ vipsthumbnail (camstamp also marks)", median(ratios), ratios,
                    "reported", "-"))
    lines = [
        "## 4. Shrinking to 2048 px: camstamp --max-size vs vipsthumbnail",
        "",
        "camstamp: `camstamp batch --text T --preset logo --jobs 2 --quality 90 --max-size 2048` (decode, orient, "
        "Lanczos3 shrink, mark, encode). vipsthumbnail: `vipsthumbnail PHOTO --size 2048` (shrink-on-load in "
        "libjpeg, then Lanczos3; no mark), one process per photo, two at a time. Same corpus as part 2; "
        f"{data['rounds']} rounds after a warm-up; medians (min–max). The check column counts outputs whose "
        "long side is 2048.",
        "",
        "| tool | photos/s | CPU s/photo | long side 2048 | others' load (max) |",
        "|---|---|---|---|---|",
        *rows,
    ]
    return "\n".join(lines) + "\n" + failures(data)


def paths(out, tool):
    """How many photos took each path in a tool's last run (its --json lines), as "spliced 32"."""
    path = os.path.join(out, "coefficients", tool, "paths.jsonl")
    if not os.path.exists(path):
        return "-"
    counts = {}
    for line in open(path):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if "path" in entry:
            counts[entry["path"]] = counts.get(entry["path"], 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "-"


def coefficients(out, photos_dir, summary):
    data = load(out, "coefficients.json")
    if not data:
        return ""
    runs = data["runs"]
    floor, reencode = runs.get("djpeg-cjpeg", []), runs.get("camstamp-reencode", [])
    tier1 = runs.get("camstamp-coefficients", [])
    checks = {}
    for entry in load(out, "coefficients-checks.json") or []:
        tool = os.path.basename(entry.get("Directory", "").rstrip("/"))
        checks.setdefault(tool, []).append(entry)
    # Part 5's corpus: the part 2 photos with the standard Huffman tables (bench/run.sh).
    sources = {e.get("FileName"): e for e in checks.get("photos-standard", [])}
    n = len(sources) or 1
    rows = []
    ratios = {}
    for tool in data["order"]:
        rs = runs[tool]
        # Each row against the same tools on its own corpus (standard or -optimised tables).
        corpus = "-optimised" if tool.endswith("-optimised") else ""
        floor, tier1 = runs.get("djpeg-cjpeg" + corpus, []), runs.get("camstamp-coefficients" + corpus, [])
        reencode, jpegtran = runs.get("camstamp-reencode" + corpus, []), runs.get("jpegtran" + corpus, [])
        huffman = runs.get("huffman-pass" + corpus, [])
        vs_floor = [f["wall"] / r["wall"] for r, f in zip(rs, floor)]
        vs_tier1 = [t["wall"] / r["wall"] for r, t in zip(rs, tier1)]
        vs_reencode = [e["wall"] / r["wall"] for r, e in zip(rs, reencode)]
        vs_jpegtran = [j["wall"] / r["wall"] for r, j in zip(rs, jpegtran)]
        vs_huffman = [h["wall"] / r["wall"] for r, h in zip(rs, huffman)]
        cpu_floor = [f["cpu"] / r["cpu"] for r, f in zip(rs, floor) if r.get("cpu")]
        mem = [r["max_rss_kib"] * 1024 / 1e6 for r in rs if r.get("max_rss_kib")]
        got = checks.get(tool, [])
        growth = [e["FileSize"] / sources[e["FileName"]]["FileSize"] - 1 for e in got
                  if e.get("FileSize") and e.get("FileName") in sources]
        kept = sum(1 for e in got if e.get("Orientation") == sources.get(e.get("FileName"), {}).get("Orientation"))
        ratios[tool] = (vs_floor, vs_tier1, vs_reencode, mem, cpu_floor, vs_jpegtran, vs_huffman)
        rows.append(
            f"| {tool} | {spread([n / r['wall'] for r in rs])} | {median([r['cpu'] for r in rs]) / n:.3f} "
            f"| {spread(mem, '{:.0f}')} | {spread(vs_floor)} | {spread(cpu_floor)} | {spread(vs_tier1)} | {spread(vs_reencode)} "
            f"| {spread(vs_jpegtran)} | {spread(vs_huffman)} "
            f"| {('%+.2f %%' % (100 * median(growth))) if growth else '-'} "
            f"| {('%+.2f %%' % (100 * max(growth))) if growth else '-'} | {kept}/{len(got)} | {paths(out, tool)} | {noise(rs)} |")
    none = ([], [], [], [], [], [], [])
    t1 = ratios.get("camstamp-coefficients", none)
    t2 = ratios.get("camstamp-spliced", none)
    goals = [
        ("5. Tier 2 (entropy splice), --jobs 2: photos/s ÷ djpeg \\| cjpeg floor", t2[0], "≥ 4", 4.0),
        ("5. Tier 2: photos/s ÷ tier 1", t2[1], "≥ 2", 2.0),
        ("5. Tier 2: photos/s ÷ the Huffman-only pass (djpeg -scale 1/8)", t2[6], "≥ 1", 1.0),
        ("5. Tier 1 (DCT coefficients), --jobs 2: photos/s ÷ djpeg \\| cjpeg floor", t1[0], "≥ 1.4", 1.4)]
    for corpus in ("", "-optimised"):
        for tool in ("camstamp-coefficients", "camstamp-coefficients-box"):
            goals.append((f"5. {tool}{corpus}: photos/s ÷ jpegtran", ratios.get(tool + corpus, none)[5], "≥ 0.9", 0.9))
        goals.append((f"5. camstamp-reencode{corpus}: photos/s ÷ djpeg \\| cjpeg floor",
                      ratios.get("camstamp-reencode" + corpus, none)[0], "≥ 1.0", 1.0))
    for label, values, target, threshold in goals:
        ratio = median(values) if values else None
        summary.append((label, ratio, values, target, verdict(ratio, threshold, False)))
    summary.append(("5. Tier 2: CPU ÷ floor's CPU (floor CPU s / tier 2 CPU s)", median(t2[4]) if t2[4] else None, t2[4],
                    "reported", "-"))
    # --sign (issue 24): within each round, the signed run's photos/s over the unsigned one's, and
    # its peak memory over the unsigned run's.
    signed = runs.get("camstamp-spliced-signed", [])
    spliced = runs.get("camstamp-spliced", [])
    if signed:
        speed = [u["wall"] / s["wall"] for s, u in zip(signed, spliced)]
        memory = [s["max_rss_kib"] / u["max_rss_kib"] for s, u in zip(signed, spliced)
                  if s.get("max_rss_kib") and u.get("max_rss_kib")]
        ratio = median(speed) if speed else None
        summary.append(("5. Tier 2 with --sign: photos/s ÷ unsigned tier 2", ratio, speed, "≥ 0.9",
                        verdict(ratio, 0.9, False)))
        ratio = median(memory) if memory else None
        summary.append(("5. Tier 2 with --sign: peak memory ÷ unsigned tier 2", ratio, memory, "≤ 1.10",
                        verdict(ratio, 1.10 + 1e-9, True)))
    rss = (t1[3] or []) + (t2[3] or [])
    peak = max(rss) if rss else None
    summary.append(("5. Tiers 1 and 2: peak memory, MB (max RSS, largest run)", peak, rss, "< 235",
                    verdict(peak, 235 - 1e-9, True)))
    lines = [
        "## 5. Stamped without re-encoding (tier 2: entropy splice; tier 1: DCT coefficients)",
        "",
        "The part 2 photos with the standard Huffman tables cameras write (`jpegtran -copy all`: lossless, the same "
        "coefficients), the part 2 marks, written as JPEG at each photo's own quality (no `--quality`): "
        "`camstamp batch --text T --preset logo --jobs 2` splices each photo's entropy-coded data (tier 2: only the MCUs "
        "under the marks and the one after each coded again, the rest copied); camstamp-coefficients is the same with "
        "`CAMSTAMP_SPLICE=0` (tier 1: libjpeg reads and writes every coefficient); `--reencode` forces the full decode, "
        "orient, mark, encode path; `djpeg | cjpeg` is the floor; jpegtran (a full entropy decode and encode) bounds "
        "tier 1 and `djpeg -scale 1/8` (a Huffman-only pass) tier 2. The -box rows mark with a solid box (white text "
        "on an opaque black box) instead. The -optimised rows run the same on the part 2 photos as ImageMagick wrote "
        "them (optimal tables, which lack codes the changed blocks may need: the splice codes such blocks as the "
        "nearest the tables can say, within 35 dB of the marks, else tier 1; see the paths column), each against the "
        "floor and bounds on that corpus. "
        f"{data['rounds']} rounds interleaved after a warm-up; medians (min–max); ratios within each round. "
        "Size growth is each output's file size over its source's (metadata included); orientation kept "
        "counts outputs whose Orientation tag is the source's; paths is what `--json` said in the last run.",
        "",
        "| tool | photos/s | CPU s/photo | peak memory MB | × floor | × floor (CPU) | × tier 1 | × --reencode "
        "| × jpegtran | × Huffman pass | size vs source (median) | (max) | orientation kept | paths | others' load (max) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Targets (issues 12 and 26): tier 2 ≥ 4 × floor (issue 12 asked 3), ≥ 2 × tier 1 and no slower than the "
        "Huffman-only pass; tier 1 ≥ 1.4 × floor and ≥ 0.9 × jpegtran on both corpora; --reencode ≥ 1.0 × floor; "
        "every baseline photo spliced (paths); memory below 235 MB; output within +2 % of the input.",
    ]
    return "\n".join(lines) + "\n" + failures(data)


def heic(out, summary):
    data = load(out, "heic.json")
    if not data:
        return ""
    runs = data["runs"]
    checks = {}
    for entry in load(out, "heic-checks.json") or []:
        tool = os.path.basename(entry.get("Directory", "").rstrip("/"))
        checks.setdefault(tool, []).append(entry)
    rows = []
    for tool in data["order"]:
        rs = runs[tool]
        n = median([r.get("units") and int(r["units"]) for r in rs]) or 1
        got = checks.get(tool, [])
        exif = sum(1 for e in got if e.get("Make") == "CamstampBench" and e.get("DateTimeOriginal"))
        types = "/".join(sorted({str(e.get("FileType")) for e in got})) or "?"
        size = median([e.get("FileSize") for e in got])
        rows.append(f"| {tool} | {spread([n / r['wall'] for r in rs])} | {median([r['cpu'] for r in rs]) / n:.3f} "
                    f"| {spread([r['max_rss_kib'] / 1024 for r in rs if r.get('max_rss_kib')], '{:.0f}')} "
                    f"| {types} | {exif}/{len(got)} | {size / 1e6 if size else 0:.2f} | {noise(rs)} |")
    cs, peer = runs.get("camstamp-heic-jpg", []), runs.get("heif-convert-magick", [])
    ratios = [p["wall"] / c["wall"] for c, p in zip(cs, peer)]
    summary.append(("6. HEIC 12 MP → marked JPEG: camstamp photos/s ÷ heif-convert + ImageMagick", median(ratios), ratios,
                    "reported", "-"))
    lines = [
        "## 6. HEIC photos: camstamp vs heif-convert + ImageMagick",
        "",
        "12 MP HEICs made from the first photos of part 2 (upright, `heif-enc -q 80`). camstamp-heic-jpg: "
        "`camstamp batch --text T --preset logo --jobs 2 --quality 90 --format jpg` (libheif decode, mark, JPEG). "
        "heif-convert-magick: `heif-convert PHOTO.heic TMP.jpg` then ImageMagick draws the same mark as in part 2 "
        "and writes JPEG q90, one photo per shell, two at a time. camstamp-heic-keep: the same batch writing HEIC "
        f"again (x265 through libheif; no peer row). {data['rounds']} rounds after a warm-up; medians (min–max).",
        "",
        "| tool | photos/s | CPU s/photo | peak memory MiB | output | EXIF kept | MB/photo | others' load (max) |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ]
    return "\n".join(lines) + "\n" + failures(data)


def stream(out, seconds, summary):
    data = load(out, "stream.json")
    if not data:
        return ""
    runs = data["runs"]
    want = seconds * 30

    def per_frame(r):
        return r["cpu"] / r["units"] * 1000 if r.get("units") else None

    rows = []
    for name in data["order"]:
        rs = runs[name]
        rows.append(
            f"| {name} | {'/'.join(str(int(r['units'])) if r.get('units') else '?' for r in rs)} of {want} "
            f"| {spread([r['cpu'] for r in rs])} | {spread([per_frame(r) for r in rs])} "
            f"| {spread([per_frame(r) * 30 / 1000 if per_frame(r) else None for r in rs])} "
            f"| {spread([r['wall'] for r in rs])} | {spread([r['max_rss_kib'] / 1024 for r in rs if r.get('max_rss_kib')], '{:.0f}')} "
            f"| {noise(rs)} |")
    pairs = [(per_frame(a), per_frame(b)) for a, b in zip(runs.get("camstamp", []), runs.get("gst-marks", []))]
    ratio_runs = [a / b for a, b in pairs if a and b]
    ratio = median(ratio_runs)
    summary.append(("3. Stream 1080p30 x264: camstamp ÷ gst-launch, CPU per frame written", ratio, ratio_runs, "≤ 1.00",
                    verdict(ratio, TARGETS["stream"], True)))
    # Issue 34: the largest run's peak (GNU time's max RSS), as batch's memory figure.
    cs_rss = [r["max_rss_kib"] / 1024 for r in runs.get("camstamp", []) if r.get("max_rss_kib")]
    peak = max(cs_rss) if cs_rss else None
    summary.append(("3. Stream: camstamp peak memory, MiB (max RSS, largest run)", peak, cs_rss, "≤ 90",
                    verdict(peak, TARGETS["stream_rss_mib"], True)))
    lines = [
        f"## 3. Stream: CPU per frame and peak memory, 1920x1080 at 30 fps for {seconds} s, credit + logo, x264 veryfast zerolatency",
        "",
        "camstamp: `camstamp stream --source test --preset credit --preset logo --size 1920x1080 --fps 30 "
        f"--duration {seconds} --to X.mp4`. gst-launch: the same live test pattern, textoverlay + gdkpixbufoverlay, "
        "and the same encoder settings as camstamp's MP4 pipeline (bitrate 4000, key-int-max 30, fragmented mp4mux). "
        "`gst-none` is the same without the overlays: what the encoder alone costs. CPU = user+sys of the whole "
        "process (all threads) from wait4; frames = video packets in the written file (ffprobe), so dropped frames "
        f"do not count as work done. {data['rounds']} rounds, medians (min–max).",
        "",
        "| command | frames in file (each run) | CPU s | CPU ms/frame | cores at 30 fps | wall s | peak memory MiB | others' load (max) |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        f"| **ratio camstamp ÷ gst-marks** (per round) | | | **{spread(ratio_runs)}** | | | | |",
        "",
        "Targets: ratio ≤ 1.00; camstamp's peak memory ≤ 90 MiB (issue 34; gst-marks' is the reference). "
        "A run with fewer frames than expected fell behind real time and dropped frames.",
    ]
    return "\n".join(lines) + "\n" + failures(data)


def clip(out, summary):
    data = load(out, "clip.json")
    if not data:
        return ""
    runs = data["runs"]
    seconds = 60.0
    rows = []
    for name in data["order"]:
        rs = runs[name]
        rows.append(
            f"| {name} | {'/'.join(str(int(r['units'])) if r.get('units') else '?' for r in rs)} of 1800 "
            f"| {spread([r['wall'] for r in rs])} | {spread([seconds / r['wall'] for r in rs])} "
            f"| {spread([r['cpu'] for r in rs])} | {spread([r['max_rss_kib'] / 1024 for r in rs if r.get('max_rss_kib')], '{:.0f}')} "
            f"| {noise(rs)} |")
    pairs = list(zip(runs.get("camstamp", []), runs.get("ffmpeg", [])))
    wall_runs = [a["wall"] / b["wall"] for a, b in pairs if a.get("wall") and b.get("wall")]
    cpu_runs = [a["cpu"] / b["cpu"] for a, b in pairs if a.get("cpu") and b.get("cpu")]
    wall, cpu = median(wall_runs), median(cpu_runs)
    summary.append(("9. Clip 1080p30 60 s: camstamp ÷ ffmpeg, wall", wall, wall_runs, "≤ 1.00", verdict(wall, TARGETS["clip"], True)))
    summary.append(("9. Clip 1080p30 60 s: camstamp ÷ ffmpeg, CPU", cpu, cpu_runs, "≤ 1.00", verdict(cpu, TARGETS["clip"], True)))
    checks = []
    path = os.path.join(out, "clip-checks.txt")
    if os.path.exists(path):
        lines = [line.split() for line in open(path) if line.strip()]
        source_md5 = next((l[3] for l in lines if l[0] == "source" and len(l) > 3), None)
        ffmpeg_x264 = next((l[4] for l in lines if l[0] == "ffmpeg" and len(l) > 4), None)
        for l in lines:
            if len(l) < 3:
                continue
            same = "yes" if len(l) > 3 and source_md5 and l[3] == source_md5 else "no"
            x264 = "yes" if len(l) > 4 and ffmpeg_x264 and l[4] == ffmpeg_x264 else "no"
            checks.append(f"| {l[0]} | {l[1]} | {int(l[2]) / 1e6:.1f} | {same if l[0] != 'source' else '-'} "
                          f"| {x264 if l[0] == 'camstamp' else '-'} |")
    lines = [
        "## 9. Video file: a 1080p30 clip of 60 s with AAC, marked and re-encoded",
        "",
        "camstamp: `camstamp batch source.mp4 -o DIR --preset credit --preset logo --jobs 2` (camstampx264enc, its "
        "libx264 element, with libx264's defaults: medium, CRF 23; audio copied). ffmpeg: `-filter_complex overlay,drawtext` with the same logo and text, "
        "`-c:v libx264 -preset medium -crf 23 -pix_fmt yuv420p -c:a copy`. Speed = seconds of clip per second of "
        f"wall time. {data['rounds']} rounds, medians (min–max).",
        "",
        "| command | frames in file (each run) | wall s | speed × real time | CPU s | peak memory MiB | others' load (max) |",
        "|---|---|---|---|---|---|---|",
        *rows,
        f"| **ratio camstamp ÷ ffmpeg** (per round) | | **{spread(wall_runs)}** | | **{spread(cpu_runs)}** | | |",
        "",
        "Target: both ratios ≤ 1.00, and faster than real time.",
    ]
    if checks:
        lines += ["", "| file | streams (codec/pix_fmt) | MB | audio packets identical to the source | x264 settings (SEI) identical to ffmpeg's |",
                  "|---|---|---|---|---|", *checks]
    return "\n".join(lines) + "\n" + failures(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--photos", required=True)
    parser.add_argument("--blend-frames", type=int, required=True)
    parser.add_argument("--stream-seconds", type=int, required=True)
    parser.add_argument("--elapsed", type=int)
    a = parser.parse_args()

    summary = []
    sections = [blend(a.out, a.blend_frames, summary), batch(a.out, a.photos, summary),
                stream(a.out, a.stream_seconds, summary), resize(a.out, summary),
                coefficients(a.out, a.photos, summary), heic(a.out, summary), clip(a.out, summary)]
    env = {}
    if os.path.exists(os.path.join(a.out, "env.txt")):
        for line in open(os.path.join(a.out, "env.txt")):
            key, _, value = line.rstrip("\n").partition("=")
            env[key] = value
    print("# camstamp benchmark")
    print()
    print(f"{env.get('date', '?')} · {env.get('cores', '?')} cores ({env.get('cpu', '?')}) · camstamp {env.get('camstamp', '?')} · "
          f"GStreamer {env.get('gstreamer', '?')} · ImageMagick {env.get('imagemagick', '?')} · vips {env.get('vips', '?')} · "
          f"ffmpeg {env.get('ffmpeg', '?')} · libjpeg-turbo {env.get('libjpeg-turbo', '?')}"
          + (f" · whole run {a.elapsed // 60} min {a.elapsed % 60} s" if a.elapsed is not None else ""))
    print()
    print("| measure | result | per round (min–max) | target | |")
    print("|---|---|---|---|---|")
    for what, value, rounds, target, word in summary:
        fmt = "{:.0f}" if "MB" in what else "{:.1f}" if "MiB" in what else "{:.2f}"
        shown = "n/a" if value is None else fmt.format(value)
        rounds = [x for x in rounds or [] if x is not None]
        span = f"{fmt.format(min(rounds))}–{fmt.format(max(rounds))}" if rounds else "-"
        print(f"| {what} | {shown} | {span} | {target} | {word} |")
    print()
    print("Ratios are medians of per-round ratios from this run only; absolute times on this shared "
          "2-core machine move with the neighbours' load (the 'others' load' columns).")
    for section in sections:
        if section:
            print()
            print(section.rstrip("\n"))


if __name__ == "__main__":
    main()
