#!/usr/bin/env python3
"""The camera's web preview: CPU per frame of `camstamp camera` at 640x480@30 on the test camera
with 0, 1 and 4 viewers, next to the capture alone (camstamp's capture template in gst-launch).

Usage: preview.py OUT_JSON  (env: CAMSTAMP, CAMSTAMP_HOME, PREVIEW_SECONDS [10], PREVIEW_ROUNDS [3])
Each run: start the process, wait 2 s (start-up, first renders), read its CPU time (utime+stime of
/proc/PID/stat, all threads), let it run PREVIEW_SECONDS, read again; CPU per frame is the
difference over 30 frames a second. Viewers are curl processes outside the measured one, reading
the stream to /dev/null; the parts they received are counted. Rounds are interleaved. Markdown on
stdout.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

out = sys.argv[1]
camstamp = os.environ.get("CAMSTAMP", ".build/release/camstamp")
seconds = float(os.environ.get("PREVIEW_SECONDS", "10"))
rounds = int(os.environ.get("PREVIEW_ROUNDS", "3"))
ticks = os.sysconf("SC_CLK_TCK")
fps = 30
capture = ("videotestsrc is-live=true pattern=smpte75 horizontal-speed=2 ! videoconvert ! videoscale ! "
           "videorate drop-only=true ! video/x-raw,format=I420,width=640,height=480,framerate=30/1,"
           "pixel-aspect-ratio=1/1 ! fakesink sync=true")


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


def run(name, viewers):
    if name == "capture":
        process = subprocess.Popen(["gst-launch-1.0", "-q"] + capture.split(), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        url = None
    else:
        process = subprocess.Popen([camstamp, "camera", "--source", "test", "--size", "640x480", "--fps", "30",
                                    "--preset", "timestamp", "--web", "127.0.0.1:0", "-o", "/tmp"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        url = process.stdout.readline().strip()
        if not re.match(r"^http://127\.0\.0\.1:\d+/$", url):
            sys.exit("preview bench: camstamp camera printed no URL")
    clients = [subprocess.Popen(["curl", "-s", "-N", url + "stream.mjpg"], stdout=subprocess.PIPE)
               for _ in range(viewers)]
    counters = []
    for client in clients:
        # Count part heads as they arrive, in a thread per viewer.
        import threading
        count = [0]

        def read(stream=client.stdout, count=count):
            tail = b""
            while True:
                chunk = stream.read1(65536)
                if not chunk:
                    return
                data = tail + chunk
                count[0] += data.count(b"--camstampframe")
                tail = data[-15:]
        thread = threading.Thread(target=read, daemon=True)
        thread.start()
        counters.append(count)
    time.sleep(2)
    before, parts_before, started = cpu_seconds(process.pid), [c[0] for c in counters], time.monotonic()
    time.sleep(seconds)
    after, parts_after, elapsed = cpu_seconds(process.pid), [c[0] for c in counters], time.monotonic() - started
    for client in clients:
        client.kill()
        client.wait()
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    received = [(a - b) / elapsed for a, b in zip(parts_after, parts_before)]
    return {"name": name, "viewers": viewers, "cpu_ms_per_frame": (after - before) * 1000 / (elapsed * fps),
            "parts_per_second": received}


configs = [("capture", 0), ("camera", 0), ("camera", 1), ("camera", 4)]
runs = []
for round_number in range(rounds):
    for index in range(len(configs)):
        name, viewers = configs[(index + round_number) % len(configs)]
        result = run(name, viewers)
        result["round"] = round_number
        runs.append(result)
        print("bench: preview %s %d viewer(s): %.2f ms/frame" % (name, viewers, result["cpu_ms_per_frame"]), file=sys.stderr)
with open(out, "w") as file:
    json.dump(runs, file, indent=1)


def median(values):
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def per_round(name, viewers):
    return {r["round"]: r["cpu_ms_per_frame"] for r in runs if r["name"] == name and r["viewers"] == viewers}


capture_ms = per_round("capture", 0)
rows = []
print("### 4. Camera preview CPU per frame (640x480@30, test camera, `--preset timestamp`, %d s, %d rounds)\n" % (seconds, rounds))
print("| run | CPU ms/frame | more than the capture alone | viewers' parts/s |")
print("|---|---|---|---|")
print("| capture alone (camstamp's capture template in gst-launch) | %.2f | | |" % median(capture_ms.values()))
for viewers in (0, 1, 4):
    camera = per_round("camera", viewers)
    extra = [camera[r] - capture_ms[r] for r in camera]
    rates = [rate for r in runs if r["name"] == "camera" and r["viewers"] == viewers for rate in r["parts_per_second"]]
    print("| `camstamp camera`, %d viewer%s | %.2f | %+.2f (%+.2f…%+.2f) | %s |" % (
        viewers, "" if viewers == 1 else "s", median(camera.values()), median(extra), min(extra), max(extra),
        ("%.1f…%.1f" % (min(rates), max(rates))) if rates else "–"))
one, four, zero = per_round("camera", 1), per_round("camera", 4), per_round("camera", 0)
each = [(four[r] - one[r]) / 3 for r in four]
print("\nPreview (camera with 0 viewers − capture alone; includes pulling and marking each frame): %.2f ms/frame "
      "(target ≤ 1.5). Each viewer beyond the first: %.3f ms/frame (target ≤ 0.2). First viewer: %.3f ms/frame."
      % (median([zero[r] - capture_ms[r] for r in zero]), median(each), median([one[r] - zero[r] for r in one])))
