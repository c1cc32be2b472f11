#!/usr/bin/python3
"""camstamp's HLS output played by a real browser (Debian's chromium, which plays HLS natively,
driven by chromium-driver + python3-selenium).

Usage: hls_test.py CAMSTAMP FOLDER SCREENSHOT.png
Streams 6 s of the test camera with a mark to hls:FOLDER/live, serves FOLDER over HTTP on
127.0.0.1 (a free port), loads a page whose <video> points at live/index.m3u8, and waits until
the browser plays it: 640x360 pictures, the playlist's length, time advancing past 2 s, no media
error. Saves a screenshot. Exit 0 when all passed; otherwise a line saying what failed, and exit 1.
"""
import functools
import http.server
import os
import signal
import subprocess
import sys
import threading
import time

signal.pthread_sigmask(signal.SIG_SETMASK, [])

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

camstamp, folder, screenshot = sys.argv[1:4]


def fail(message):
    print("hls test: " + message, file=sys.stderr)
    sys.exit(1)


stream = subprocess.run(
    [camstamp, "stream", "--source", "test", "--size", "640x360", "--fps", "30", "--text", "HLS {time}",
     "--to", "hls:" + os.path.join(folder, "live"), "--duration", "6"],
    capture_output=True, text=True, timeout=60)
if stream.returncode != 0:
    fail("camstamp stream exited %d: %s" % (stream.returncode, stream.stderr.strip()))
with open(os.path.join(folder, "play.html"), "w") as page:
    page.write('<html><body><video id="v" src="live/index.m3u8" muted autoplay playsinline></video></body></html>')

handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=folder)
handler.log_message = lambda *args: None
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
driver = None
try:
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.get("http://127.0.0.1:%d/play.html" % server.server_address[1])
    state = None
    deadline = time.time() + 30
    while time.time() < deadline:
        state = driver.execute_script(
            "const v = document.getElementById('v');"
            "return {ready: v.readyState, time: v.currentTime, width: v.videoWidth, height: v.videoHeight,"
            " duration: v.duration, error: v.error && (v.error.code + ' ' + v.error.message)};")
        if state["error"] or (state["time"] > 2 and state["ready"] >= 2):
            break
        time.sleep(0.25)
    driver.save_screenshot(screenshot)
    if state["error"]:
        fail("the browser cannot play the playlist: %s" % state["error"])
    if not (state["time"] > 2 and state["ready"] >= 2):
        fail("the video did not play within 30 s: %s" % state)
    if (state["width"], state["height"]) != (640, 360):
        fail("pictures of %sx%s, not 640x360" % (state["width"], state["height"]))
    if not abs(state["duration"] - 6) <= 0.5:
        fail("the playlist lasts %s s, not 6" % state["duration"])
    print("played: %s" % state)
finally:
    if driver:
        driver.quit()
    server.shutdown()
