#!/usr/bin/python3
"""The camera page's WebRTC preview in Chromium (issue 34 §1).

Usage: webrtc_test.py CAMSTAMP FOLDER
Starts `camstamp camera` on the test camera (640x480, 30 fps, the timestamp mark), then at
390x844 and 1280x800: the page switches to the WebRTC preview, the <video> plays (getStats'
frames decoded grow by a second's worth and more in 3 s), a canvas drawn from it holds the mark
where the MJPEG preview has it, the shutter takes a photo; a screenshot goes to
FOLDER/webrtc-W.png. Then 50 viewers join and leave one after another (each connects, decodes
frames and DELETEs its session), and camstamp's threads and memory are read from /proc before
and after. The last line is `result JSON`; exit 1 with a line saying what failed.
"""
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

signal.pthread_sigmask(signal.SIG_SETMASK, [])

import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

camstamp, folder = sys.argv[1:3]
photos = os.path.join(folder, "photos")


def fail(message):
    print("webrtc test: " + message, file=sys.stderr)
    sys.exit(1)


def proc_status(pid):
    """Threads and resident memory (KiB) of the process."""
    values = {}
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            name, _, value = line.partition(":")
            values[name] = value.strip()
    return int(values["Threads"]), int(values["VmRSS"].split()[0])


# One viewer joining and leaving as a WHEP player does, in the page: offer, POST, answer, frames
# decoded, DELETE. Resolves to the frames it decoded, or an error text.
JOIN_AND_LEAVE = """
const done = arguments[arguments.length - 1];
(async () => {
  const pc = new RTCPeerConnection();
  pc.addTransceiver("video", { direction: "recvonly" });
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const timer = setTimeout(resolve, 2000);
    pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === "complete") { clearTimeout(timer); resolve(); } };
  });
  const response = await fetch("api/webrtc", { method: "POST", headers: { "Content-Type": "application/sdp" },
                                               body: pc.localDescription.sdp });
  const answer = await response.text();
  if (response.status !== 201) { pc.close(); return "POST: " + response.status + " " + answer; }
  const resource = response.headers.get("Location");
  await pc.setRemoteDescription({ type: "answer", sdp: answer });
  let decoded = 0;
  for (let i = 0; i < 100 && decoded < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    (await pc.getStats()).forEach((r) => { if (r.type === "inbound-rtp" && r.kind === "video") decoded = r.framesDecoded || 0; });
  }
  const gone = await fetch(resource, { method: "DELETE" });
  pc.close();
  return gone.status === 200 ? decoded : "DELETE: " + gone.status;
})().then(done, (error) => done("error: " + error));
"""

# The picture in the <video>, drawn on a canvas: its size, and whether the bottom-left corner
# (where the timestamp mark is) differs from the test pattern's bars above it.
SAMPLE = """
const video = document.getElementById('live');
const canvas = document.createElement('canvas');
canvas.width = video.videoWidth; canvas.height = video.videoHeight;
const context = canvas.getContext('2d');
context.drawImage(video, 0, 0);
const at = (x, y) => Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3));
return { width: canvas.width, height: canvas.height,
         corner: at(Math.floor(canvas.width * 0.06), Math.floor(canvas.height * 0.93)),
         above: at(Math.floor(canvas.width * 0.06), Math.floor(canvas.height * 0.5)) };
"""

camera = subprocess.Popen(
    [camstamp, "camera", "--source", "test", "--size", "640x480", "--fps", "30", "--preset", "timestamp",
     "--web", "127.0.0.1:0", "-o", photos],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
driver = None
results = {}
try:
    url = camera.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        fail("camstamp printed no URL: %r" % url)
    base = url.split("?")[0].rstrip("/")

    def state():
        with urllib.request.urlopen(base + "/api/state", timeout=10) as answer:
            return json.load(answer)

    driver = chromium.start()
    wait = WebDriverWait(driver, 30)
    for width, height in [(390, 844), (1280, 800)]:
        chromium.open_at(driver, wait, url, width, height)
        wait.until(lambda d: d.execute_script("return document.body.dataset.preview") in ("webrtc", "mjpeg"))
        if driver.execute_script("return document.body.dataset.preview") != "webrtc":
            fail("%d: the page fell back to MJPEG: %s" % (width, driver.get_log("browser")))
        stats = lambda: driver.execute_async_script(
            "webRTCPreview.stats().then(arguments[arguments.length - 1])")
        first = stats()
        time.sleep(3)
        last = stats()
        decoded = last["framesDecoded"] - first["framesDecoded"]
        sample = driver.execute_script(SAMPLE)
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(folder, "webrtc-%d.png" % width))
        count = len(state()["shots"])
        driver.find_element(By.ID, "shoot").click()
        wait.until(lambda d: len(state()["shots"]) == count + 1)
        results["%dx%d" % (width, height)] = {
            "decoded": decoded, "bytes": last["bytesReceived"] - first["bytesReceived"], "sample": sample,
            "shot": state()["shots"][-1]["path"]}

    # The page's own viewer goes, then 50 join and leave; memory and threads before and after.
    driver.get("about:blank")
    time.sleep(2)
    chromium.open_at(driver, wait, url + ("&" if "?" in url else "?") + "preview=mjpeg", 800, 600)
    for _ in range(10):  # the heap's high-water mark settles
        driver.execute_async_script(JOIN_AND_LEAVE)
    time.sleep(2)
    before = proc_status(camera.pid)
    driver.set_script_timeout(60)
    for index in range(50):
        outcome = driver.execute_async_script(JOIN_AND_LEAVE)
        if not isinstance(outcome, int) or outcome < 5:
            fail("viewer %d: %r" % (index + 1, outcome))
    time.sleep(3)
    after = proc_status(camera.pid)
    results["joins"] = {"threads": [before[0], after[0]], "rss_kib": [before[1], after[1]],
                        "left": state().get("webrtcViewers")}
    print("result " + json.dumps(results), flush=True)
finally:
    if driver:
        driver.quit()
    camera.send_signal(signal.SIGINT)
    try:
        camera.wait(timeout=20)
    except subprocess.TimeoutExpired:
        camera.kill()
