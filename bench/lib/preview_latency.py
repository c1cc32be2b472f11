#!/usr/bin/python3
"""The camera page's preview, glass to page: how late the frame the page shows is, and how many
bits it took, over WebRTC and over MJPEG, for `camstamp camera --source test --fps 30` at
640x480 and 1280x720 (issue 34 §1).

Usage: preview_latency.py OUT_JSON  (env: CAMSTAMP, CAMSTAMP_HOME, PREVIEW_LATENCY_SECONDS [8],
PREVIEW_LATENCY_SIZES ["640x480 1280x720"])
- The test camera draws its clock: with CAMSTAMP_TEST_CLOCK=1 each frame carries the wall-clock
  milliseconds it left the source as blocks in its top-left corner (TestClockStamp.swift: 4 sync
  blocks, 32 bits, 4 check bits, 16 px each). The page reads them back from the frame it shows.
- The page (headless Chromium, a viewport that shows the frame at its size) is opened as a person
  opens it: WebRTC by default, MJPEG with ?preview=mjpeg; the page's own code sets up either. WebRTC:
  `requestVideoFrameCallback` on <video id="live">, once per frame composited; MJPEG: every
  `requestAnimationFrame`, the <img id="preview"> is read and a new time noted. Either way the
  frame's corner is drawn on a canvas and decoded, and latency = Date.now() in the callback - the
  time in the frame: same machine, same clock. Both see a frame at the first render step (60 a
  second) after it is there, and it is on screen about one step later.
  A read whose blocks are neither black nor white, whose sync or check bits are wrong, is
  counted as unreadable and left out.
- Bits: WebRTC, getStats' bytesReceived (RTP payload) over the window; MJPEG, a plain-socket
  viewer of /stream.mjpg beside the page counting the bytes of the response body.
- Per run: 3 s warm-up, then PREVIEW_LATENCY_SECONDS. Over the same window: camstamp's CPU, the
  browser's (this script's process tree less camstamp: Chromium, chromedriver, the byte counter)
  and the share of the machine other processes took (the noise, as measure.py's `busy`).
Markdown on stdout; the samples in OUT_JSON, a screenshot of each run beside it.
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

here = os.path.dirname(os.path.abspath(__file__))
# The page tests' Chromium helper (Debian's chromium, chromium-driver, python3-selenium).
sys.path.insert(0, os.path.join(here, "..", "..", "Tests", "CameraTests", "Scripts"))
import chromium  # noqa: E402
from measure import machine_ticks, settle  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

out = sys.argv[1]
camstamp = os.environ.get("CAMSTAMP", ".build/release/camstamp")
seconds = float(os.environ.get("PREVIEW_LATENCY_SECONDS", "8"))
sizes = os.environ.get("PREVIEW_LATENCY_SIZES", "640x480 1280x720").split()
warmup = 3
ticks = os.sysconf("SC_CLK_TCK")

# The reader of TestClockStamp's blocks, and the two collectors. __clock.read(source, width)
# gives the frame's time in wall-clock ms, or null; `width` is the source's own width, for a
# preview scaled from the capture (not the case at these sizes).
COLLECT = """
const [transport, captureWidth] = arguments;
const B = 16, COLUMNS = 10, ROWS = 4, SYNC = [1, 0, 1, 1];
const canvas = document.createElement("canvas");
canvas.width = COLUMNS * B; canvas.height = ROWS * B;
const context = canvas.getContext("2d", { willReadFrequently: true });
const clock = window.__clock = { samples: [], reads: 0, unreadable: 0 };
// A time of the performance clock (a render step's, a packet's) as wall-clock ms.
const wall = (t) => Date.now() - (performance.now() - t);
clock.read = (source, width) => {
  const scale = width / captureWidth;
  context.drawImage(source, 0, 0, COLUMNS * B * scale, ROWS * B * scale, 0, 0, COLUMNS * B, ROWS * B);
  const data = context.getImageData(0, 0, COLUMNS * B, ROWS * B).data;
  const bits = [];
  for (let i = 0; i < COLUMNS * ROWS; i++) {
    const left = (i % COLUMNS) * B, top = Math.floor(i / COLUMNS) * B;
    let sum = 0;
    for (let y = top + 4; y < top + B - 4; y++) {
      for (let x = left + 4; x < left + B - 4; x++) {
        const o = (y * COLUMNS * B + x) * 4;
        sum += data[o] + data[o + 1] + data[o + 2];
      }
    }
    const level = sum / (3 * (B - 8) * (B - 8));
    if (level > 80 && level < 175) return null;   // neither black nor white
    bits.push(level >= 128 ? 1 : 0);
  }
  if (SYNC.some((bit, i) => bits[i] !== bit)) return null;
  let value = 0, check = 0, got = 0;
  for (let i = 4; i < 36; i++) value = value * 2 + bits[i];
  for (let k = 0; k < 8; k++) check ^= Math.floor(value / 2 ** (4 * k)) & 15;
  for (let i = 36; i < 40; i++) got = got * 2 + bits[i];
  if (check !== got) return null;
  // The low 32 bits of the ms: the full time is the latest with them, up to a second ahead.
  const now = Date.now() + 1000;
  return now - (((now - value) % 2 ** 32) + 2 ** 32) % 2 ** 32;
};
// Seen: the wall clock when the callback runs (the render step's `now` is when the step began).
clock.note = (source, width, extra) => {
  clock.reads++;
  const seen = Date.now(), stamp = clock.read(source, width);
  if (stamp === null) { clock.unreadable++; return null; }
  clock.samples.push([seen, stamp, extra]);
  return stamp;
};
if (transport === "webrtc") {
  const video = document.getElementById("live");
  // Beside it: its number; when (wall-clock ms) the compositor expects it on screen, its last
  // packet came and it went to the compositor (which shows video without waiting for the page).
  const onFrame = (now, meta) => {
    clock.note(video, video.videoWidth, [meta.presentedFrames, wall(meta.expectedDisplayTime),
                                         meta.receiveTime === undefined ? null : wall(meta.receiveTime),
                                         wall(meta.presentationTime)]);
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
} else {
  const img = document.getElementById("preview");
  let last = null;
  const poll = () => {
    if (img.naturalWidth) {
      clock.reads++;
      const seen = Date.now(), stamp = clock.read(img, img.naturalWidth);
      if (stamp === null) clock.unreadable++;
      else if (stamp !== last) { clock.samples.push([seen, stamp, null]); last = stamp; }
    }
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}
"""

WEBRTC_BYTES = "webRTCPreview.stats().then((s) => arguments[arguments.length - 1](s ? s.bytesReceived : null))"


class ByteCounter(threading.Thread):
    """A plain-socket viewer of /stream.mjpg: (arrival time, bytes) of every chunk it reads."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.chunks = []

    def run(self):
        while True:
            try:
                chunk = self.sock.recv(262144)
            except OSError:
                return
            if not chunk:
                return
            self.chunks.append((time.time(), len(chunk)))

    def bytes_between(self, began, ended):
        return sum(size for at, size in list(self.chunks) if began <= at <= ended)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


def own_cpu():
    """CPU seconds of this script and every process under it (camstamp, chromedriver, Chromium)."""
    parents, seconds_of = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(name)] = int(fields[1])
        seconds_of[int(name)] = (int(fields[11]) + int(fields[12])) / ticks
    total = 0.0
    for pid, seconds_used in seconds_of.items():
        ancestor = pid
        while ancestor not in (0, 1, os.getpid()):
            ancestor = parents.get(ancestor, 0)
        total += seconds_used if ancestor == os.getpid() else 0.0
    return total


def start_camera(size, folder):
    environment = dict(os.environ, CAMSTAMP_TEST_CLOCK="1")
    process = subprocess.Popen([camstamp, "camera", "--source", "test", "--size", size, "--fps", "30",
                                "--preset", "timestamp", "--web", "127.0.0.1:0", "-o", folder],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=environment)
    url = process.stdout.readline().strip()
    if not re.match(r"^http://127\.0\.0\.1:\d+/$", url):
        sys.exit("preview latency bench: camstamp camera printed no URL: %r" % url)
    return process, url


def stop_camera(process):
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def measure(driver, process, url, size, transport):
    """One page, one transport: the samples of the window, its bytes, camstamp's CPU."""
    width, height = (int(v) for v in size.split("x"))
    wait = WebDriverWait(driver, 30)
    driver.get("about:blank")   # the last page's viewer leaves (WebRTC: its DELETE)
    time.sleep(1)
    # The landscape layout keeps 48 px above the preview, 150 below and 112 on the right
    # (web/style.css): this viewport shows the frame at its own size, one pixel for one.
    chromium.open_at(driver, wait, url + ("?preview=mjpeg" if transport == "mjpeg" else ""), width + 112, height + 198)
    # ?preview=mjpeg leaves the page's data-preview unset; WebRTC sets it, or "mjpeg" on falling back.
    wait.until(lambda d: d.execute_script(
        "return webRTCPreview.active || document.body.dataset.preview === 'mjpeg' || "
        "(arguments[0] === 'mjpeg' && document.getElementById('preview').naturalWidth > 0)", transport))
    shown = "webrtc" if driver.execute_script("return webRTCPreview.active") else "mjpeg"
    if shown != transport:
        sys.exit("preview latency bench: %s %s: the page shows %s (%s)" % (size, transport, shown,
                                                                         driver.get_log("browser")))
    driver.execute_script(COLLECT, transport, width)
    # The picture's size on the page (object-fit: contain in the element's box), to show it is 1:1.
    on_page = driver.execute_script(
        "const shown = webRTCPreview.shown(), box = shown.box.getBoundingClientRect();"
        "const scale = Math.min(box.width / shown.width, box.height / shown.height);"
        "return [Math.round(shown.width * scale), Math.round(shown.height * scale)];")
    counter = None
    if transport == "mjpeg":
        counter = ByteCounter(int(url.rsplit(":", 1)[1].strip("/")))
        counter.start()
    time.sleep(warmup)
    driver.execute_script("__clock.samples = []; __clock.reads = 0; __clock.unreadable = 0;")
    began, cpu_began, own_began, machine_began = time.time(), cpu_seconds(process.pid), own_cpu(), machine_ticks()
    bytes_began = driver.execute_async_script(WEBRTC_BYTES) if transport == "webrtc" else None
    time.sleep(seconds)
    ended, cpu_ended, own_ended, machine_ended = time.time(), cpu_seconds(process.pid), own_cpu(), machine_ticks()
    if transport == "webrtc":
        received = driver.execute_async_script(WEBRTC_BYTES) - bytes_began
    else:
        received = counter.bytes_between(began, ended)
        counter.close()
    clock = driver.execute_script("return { samples: __clock.samples, reads: __clock.reads, "
                                  "unreadable: __clock.unreadable }")
    driver.save_screenshot(os.path.join(os.path.dirname(os.path.abspath(out)),
                                        "preview-latency-%s-%s.png" % (size, transport)))
    samples = [s for s in clock["samples"] if began * 1000 <= s[0] <= ended * 1000]
    return {"size": size, "transport": transport, "seconds": ended - began, "samples": samples,
            "on_page": on_page, "reads": clock["reads"], "unreadable": clock["unreadable"], "bytes": received,
            "camstamp_cpu": (cpu_ended - cpu_began) / (ended - began),
            "browser_cpu": (own_ended - own_began - (cpu_ended - cpu_began)) / (ended - began),
            # The share of the machine (all cores) the other processes used: the noise.
            "others": max(0.0, machine_ended[0] - machine_began[0] - (own_ended - own_began))
            / (machine_ended[1] - machine_began[1])}


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(runs):
    print("### Preview glass to page: WebRTC and MJPEG\n")
    print("`CAMSTAMP_TEST_CLOCK=1 camstamp camera --source test --size WxH --fps 30 --preset timestamp`, "
          "the page in headless Chromium; latency is the clock when the page's render step has a new frame "
          "minus the capture time drawn in that frame (bench/README.md, 7c).\n")
    print("| size | preview | latency median | p90 | frames read/s | unreadable | Mbit/s | camstamp CPU | "
          "browser CPU | others' load |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for run in runs:
        latencies = [shown - stamp for shown, stamp, _ in run["samples"]]
        print("| %s | %s | %.0f ms | %.0f ms | %.1f | %d of %d | %.2f | %.0f %% | %.0f %% | %.0f %% |" % (
            run["size"], "WebRTC" if run["transport"] == "webrtc" else "MJPEG",
            statistics.median(latencies) if latencies else float("nan"), quantile(latencies, 0.9),
            len(latencies) / run["seconds"], run["unreadable"], run["reads"],
            run["bytes"] * 8 / run["seconds"] / 1e6, run["camstamp_cpu"] * 100, run["browser_cpu"] * 100,
            run["others"] * 100))
    print()
    for run in runs:
        if run["transport"] != "webrtc" or not run["samples"]:
            continue
        packets = [extra[2] - stamp for _, stamp, extra in run["samples"] if extra[2] is not None]
        presented = [extra[3] - stamp for _, stamp, extra in run["samples"]]
        screen = [extra[1] - stamp for _, stamp, extra in run["samples"]]
        print("- WebRTC %s, medians after the capture: last packet %.0f ms, to the compositor %.0f ms, "
              "expected on screen %.0f ms (requestVideoFrameCallback's metadata)." % (
                  run["size"], statistics.median(packets) if packets else float("nan"),
                  statistics.median(presented), statistics.median(screen)))


def main():
    runs = []
    driver = chromium.start()
    try:
        for size in sizes:
            with tempfile.TemporaryDirectory() as folder:
                settle(float(os.environ.get("BENCH_SETTLE", "0.15")), float(os.environ.get("BENCH_SETTLE_WAIT", "5")))
                process, url = start_camera(size, folder)
                try:
                    for transport in ("webrtc", "mjpeg"):
                        runs.append(measure(driver, process, url, size, transport))
                finally:
                    driver.get("about:blank")
                    stop_camera(process)
    finally:
        driver.quit()
    with open(out, "w") as file:
        json.dump(runs, file)
    report(runs)


main()
