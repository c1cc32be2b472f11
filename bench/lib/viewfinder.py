#!/usr/bin/env python3
"""The camera as a camera: how late the viewfinder is, how long a press takes to become a file,
and which frame the shot is, for `camstamp camera --source test --size 640x480 --fps 30`.

Usage: viewfinder.py OUT_JSON  (env: CAMSTAMP, CAMSTAMP_HOME, VIEWFINDER_SECONDS [8],
VIEWFINDER_SHOTS [20])
- Viewfinder latency: each MJPEG part carries `X-Timestamp`, when its frame reached camstamp
  from the camera (seconds since 1970); a viewer (a plain socket, in a thread) notes when the
  part's last byte arrived. Latency = arrival - X-Timestamp, over VIEWFINDER_SECONDS after a 2 s
  warm-up, with 1 viewer and with 4 (all four viewers' parts).
- Press to file: with 1 viewer, VIEWFINDER_SHOTS presses of `POST /api/shoot`, 0.3 s apart; the
  time from sending the request to its answer (sent once the JPEG is complete on disk), and the
  shot's frame (`frame` in the answer) minus the frame the viewer had on screen (its last part's
  `X-Frame`) when the request was sent.
Markdown on stdout.
"""
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

out = sys.argv[1]
camstamp = os.environ.get("CAMSTAMP", ".build/release/camstamp")
seconds = float(os.environ.get("VIEWFINDER_SECONDS", "8"))
shots = int(os.environ.get("VIEWFINDER_SHOTS", "20"))


class Viewer(threading.Thread):
    """Reads /stream.mjpg on a socket; keeps (arrival, capture time, frame) of every part."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.parts = []
        self.last_frame = None
        self.lock = threading.Lock()

    def run(self):
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(262144)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while True:
                start = buffer.find(b"--camstampframe\r\n")
                end = buffer.find(b"\r\n\r\n", start) if start >= 0 else -1
                if end < 0:
                    break
                head = buffer[start:end].decode("latin-1")
                length = re.search(r"Content-Length: (\d+)", head)
                if not length or len(buffer) < end + 4 + int(length.group(1)):
                    break
                now = time.time()
                buffer = buffer[end + 4 + int(length.group(1)):]
                stamp = re.search(r"X-Timestamp: ([\d.]+)", head)
                frame = re.search(r"X-Frame: (\d+)", head)
                with self.lock:
                    self.parts.append((now, float(stamp.group(1)) if stamp else None,
                                       int(frame.group(1)) if frame else None))
                    self.last_frame = int(frame.group(1)) if frame else self.last_frame

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def start_camera(folder):
    process = subprocess.Popen([camstamp, "camera", "--source", "test", "--size", "640x480", "--fps", "30",
                                "--preset", "timestamp", "--web", "127.0.0.1:0", "-o", folder],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = process.stdout.readline().strip()
    match = re.match(r"^http://127\.0\.0\.1:(\d+)/$", url)
    if not match:
        sys.exit("viewfinder bench: camstamp camera printed no URL")
    return process, int(match.group(1))


def stop_camera(process):
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def press(port, viewer):
    shown = viewer.last_frame
    started = time.monotonic()
    request = urllib.request.Request("http://127.0.0.1:%d/api/shoot" % port, data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        shot = json.load(answer)
    return {"press_to_file_ms": (time.monotonic() - started) * 1000, "shown": shown, "frame": shot.get("frame")}


def run(viewers, with_shots):
    with tempfile.TemporaryDirectory() as folder:
        process, port = start_camera(folder)
        readers = [Viewer(port) for _ in range(viewers)]
        for reader in readers:
            reader.start()
        time.sleep(2)
        began = time.time()
        time.sleep(seconds)
        ended = time.time()
        latencies = []
        for reader in readers:
            with reader.lock:
                latencies += [(arrived - stamp) * 1000 for arrived, stamp, _ in reader.parts
                              if stamp is not None and began <= arrived <= ended]
        presses = []
        if with_shots:
            for _ in range(shots):
                presses.append(press(port, readers[0]))
                time.sleep(0.3)
        for reader in readers:
            reader.close()
        stop_camera(process)
    return {"viewers": viewers, "parts_per_second": len(latencies) / viewers / (ended - began),
            "latency_ms": latencies, "presses": presses}


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main():
    runs = [run(1, True), run(4, False)]
    with open(out, "w") as file:
        json.dump(runs, file)
    print("### Viewfinder latency, press to file, frame of the shot\n")
    print("`camstamp camera --source test --size 640x480 --fps 30 --preset timestamp`; latency is a part's "
          "arrival at a viewer minus its `X-Timestamp` (the frame's capture by camstamp).\n")
    print("| viewers | parts/s per viewer | latency median | p90 | max |")
    print("| --- | --- | --- | --- | --- |")
    for result in runs:
        values = result["latency_ms"]
        print("| %d | %.1f | %.1f ms | %.1f ms | %.1f ms |" % (
            result["viewers"], result["parts_per_second"], statistics.median(values) if values else float("nan"),
            quantile(values, 0.9), max(values) if values else float("nan")))
    one, four = (statistics.median(r["latency_ms"]) if r["latency_ms"] else float("nan") for r in runs)
    print("\nFour viewers add %.1f ms to the median latency.\n" % (four - one))
    presses = runs[0]["presses"]
    times = [p["press_to_file_ms"] for p in presses]
    offsets = [p["frame"] - p["shown"] for p in presses if p["frame"] is not None and p["shown"] is not None]
    counts = {offset: offsets.count(offset) for offset in sorted(set(offsets))}
    print("| presses | press to file median | p90 | max | shot frame − frame on screen |")
    print("| --- | --- | --- | --- | --- |")
    print("| %d | %.1f ms | %.1f ms | %.1f ms | %s |" % (
        len(presses), statistics.median(times) if times else float("nan"), quantile(times, 0.9),
        max(times) if times else float("nan"),
        ", ".join("%+d: %d×" % (offset, count) for offset, count in counts.items()) or "none"))


main()
