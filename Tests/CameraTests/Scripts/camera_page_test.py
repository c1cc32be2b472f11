#!/usr/bin/python3
"""The camera page as a camera, in Chromium at 390x844 and 1280x800 (issue 25 §2).

Usage: camera_page_test.py CAMSTAMP FOLDER TEMPLATE ALBUM_JPEG CHAIN KEY
Starts `camstamp camera --sign CHAIN --sign-key KEY` on TEMPLATE (a flat test camera) with its config in FOLDER/config and
its photos in FOLDER/photos, then at each size: takes 12 photos with the shutter and checks it is
still on screen and clickable, waits for the presets' thumbnails (one fetched and its JPEG size
read), drags the timestamp mark and reads the user preset it wrote, takes a photo after the
drag, opens the gallery (captions on one line each), deletes a photo from the viewer, and stamps
ALBUM_JPEG through the Album button. Screenshots go to FOLDER/page-W-NAME.png. The last line is
`result JSON` with the photos before and after each drag (signed by one press of the shutter
each) and the album's answer, which the
Swift test decodes; exit 1 with a line saying what failed.
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
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

camstamp, folder, template, album, chain, key = sys.argv[1:7]
photos = os.path.join(folder, "photos")
preset_file = os.path.join(folder, "config", "camstamp", "presets", "timestamp.json")


def fail(message):
    print("camera page test: " + message, file=sys.stderr)
    sys.exit(1)


def jpeg_size(data):
    """The width and height in a JPEG's first frame header."""
    if data[:2] != b"\xff\xd8":
        return None
    index = 2
    while index + 9 < len(data) and data[index] == 0xFF:
        marker, length = data[index + 1], int.from_bytes(data[index + 2:index + 4], "big")
        if 0xC0 <= marker <= 0xC3:
            return int.from_bytes(data[index + 7:index + 9], "big"), int.from_bytes(data[index + 5:index + 7], "big")
        index += 2 + length
    return None


# How many lines the W×H of each gallery caption takes (-1: none in it), over the caption's text
# nodes whatever the markup.
CAPTION_LINES = """
    return [...document.querySelectorAll('#gallery figcaption')].map((caption) => {
      const match = caption.textContent.match(/\\d+×\\d+/);
      if (!match) return -1;
      const start = match.index, end = start + match[0].length;
      const walker = document.createTreeWalker(caption, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      let offset = 0, node, started = false;
      while ((node = walker.nextNode())) {
        const length = node.textContent.length;
        if (!started && start < offset + length) { range.setStart(node, start - offset); started = true; }
        if (started && end <= offset + length) { range.setEnd(node, end - offset); break; }
        offset += length;
      }
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });"""

environment = dict(os.environ, XDG_CONFIG_HOME=os.path.join(folder, "config"), HOME=os.path.join(folder, "home"))
camera = subprocess.Popen(
    [camstamp, "camera", "--source", "test", "--pipeline", template, "--size", "1280x720", "--preset", "timestamp",
     "--web", "127.0.0.1:0", "-o", photos, "--sign", chain, "--sign-key", key],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
driver = None
results = {}
try:
    url = camera.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        fail("camstamp printed no URL: %r" % url)
    base = url.rstrip("/")

    def state():
        with urllib.request.urlopen(base + "/api/state", timeout=10) as answer:
            return json.load(answer)

    driver = chromium.start()
    wait = WebDriverWait(driver, 30)
    by_id = lambda name: driver.find_element(By.ID, name)

    def shoot():
        count = len(state()["shots"])
        by_id("shoot").click()
        wait.until(lambda d: len(state()["shots"]) == count + 1)
        return state()["shots"][-1]["path"]

    def screenshot(width, name):
        time.sleep(0.4)
        driver.save_screenshot(os.path.join(folder, "page-%d-%s.png" % (width, name)))

    for width, height in [(390, 844), (1280, 800)]:
        # The MJPEG preview (webrtc_test.py drives the WebRTC one): the photos' pixels are compared.
        chromium.open_at(driver, wait, url + ("&" if "?" in url else "?") + "preview=mjpeg", width, height)
        wait.until(lambda d: d.execute_script("return document.getElementById('preview').naturalWidth") > 0)

        # The shutter stays in reach however many photos there are.
        for _ in range(12):
            last = shoot()
        placed = driver.execute_script("""
            const b = document.getElementById('shoot').getBoundingClientRect();
            const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
            return [b.left, b.top, b.right, b.bottom, hit && hit.id];""")
        if not (placed[0] >= 0 and placed[1] >= 0 and placed[2] <= width and placed[3] <= height
                and placed[4] == "shoot" and placed[2] - placed[0] >= 64):
            fail("%dx%d: after 12 photos the shutter is at %s" % (width, height, placed))
        before_drag = shoot()

        # The presets' thumbnails, drawn on the live frame.
        wait.until(lambda d: d.execute_script(
            "const all = [...document.querySelectorAll('.preset img')];"
            "return all.length >= 5 && all.every((i) => i.complete && i.naturalWidth > 0);"))
        thumbnail = driver.execute_script("return document.querySelector('.preset img').src")
        with urllib.request.urlopen(thumbnail, timeout=30) as answer:
            size = jpeg_size(answer.read())
        if size != (320, 180):
            fail("the thumbnail %s is %s, not a 320x180 JPEG" % (thumbnail, size))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".mark[data-preset=timestamp]"))
        screenshot(width, "camera")

        # Drag the timestamp mark right and up; the user preset keeps its place.
        previous = open(preset_file).read() if os.path.exists(preset_file) else None
        # A preview Chromium left blank is reopened by the page within seconds (see app.js).
        wait.until(lambda d: d.execute_script("return photoRect() !== null"))
        mark = driver.find_element(By.CSS_SELECTOR, ".mark[data-preset=timestamp]")
        scale = driver.execute_script("return photoRect().scale")
        ActionChains(driver).click_and_hold(mark).move_by_offset(10, -5).move_by_offset(50, -35).release().perform()
        wait.until(lambda d: os.path.exists(preset_file) and open(preset_file).read() != previous)
        time.sleep(0.5)
        after_drag = shoot()
        results["%dx%d" % (width, height)] = {
            "before": before_drag, "after": after_drag, "dx": 60 / scale, "dy": -40 / scale,
            "preset": open(preset_file).read()}

        # Settings in a drawer.
        by_id("open-drawer").click()
        wait.until(lambda d: by_id("grid").is_displayed())
        screenshot(width, "drawer")
        by_id("close-drawer").click()

        # The gallery: captions never break inside a number; a photo opens full size and is deleted.
        by_id("last-photo").click()
        wait.until(lambda d: by_id("gallery-view").is_displayed())
        lines = driver.execute_script(CAPTION_LINES)
        if not lines or min(lines) < 1 or max(lines) != 1:
            fail("%dx%d: a caption's size is on %s lines" % (width, height, lines))
        screenshot(width, "gallery")
        # The oldest: the photos of the drag stay for the Swift test.
        driver.find_element(By.CSS_SELECTOR, "#gallery figure:last-child button").click()
        wait.until(lambda d: by_id("viewer").is_displayed())
        wait.until(lambda d: d.execute_script("return document.getElementById('viewer-image').naturalWidth") == 1280)
        screenshot(width, "viewer")
        doomed = state()["shots"][0]["path"]
        by_id("viewer-delete").click()
        wait.until(lambda d: not os.path.exists(doomed))
        wait.until(lambda d: not by_id("viewer").is_displayed())
        if any(s["path"] == doomed for s in state()["shots"]):
            fail("the deleted photo is still in the gallery")
        by_id("close-gallery").click()

        # A photo from the album, stamped and shown.
        # The page says where it kept it; the status line is redrawn every few seconds.
        driver.execute_script("window.stampedStatus = null; new MutationObserver(() => { const t ="
                              " document.getElementById('status').textContent; if (/^(stamped|cannot stamp)/.test(t))"
                              " window.stampedStatus = t; }).observe(document.getElementById('status'),"
                              " {childList: true, characterData: true, subtree: true});")
        by_id("album-file").send_keys(album)
        wait.until(lambda d: d.execute_script("return window.stampedStatus"))
        status = driver.execute_script("return window.stampedStatus")
        if not status.startswith("stamped "):
            fail("the album photo: %s" % status)
        stamped = status.split(": ", 1)[1]
        wait.until(lambda d: by_id("viewer").is_displayed())
        screenshot(width, "album")
        results["%dx%d" % (width, height)]["album"] = stamped
        by_id("viewer-close").click()

        by_id("mode-video").click()
        if by_id("shoot").text != "Record":
            fail("Video mode's shutter says %r" % by_id("shoot").text)
        screenshot(width, "video")
        by_id("mode-photo").click()
    print("result " + json.dumps(results))
finally:
    if driver is not None:
        driver.quit()
    camera.send_signal(signal.SIGINT)
    try:
        camera.wait(timeout=15)
    except subprocess.TimeoutExpired:
        camera.kill()
        fail("camstamp did not stop within 15 s of SIGINT")
if camera.returncode != 130:
    fail("camstamp exited %d after SIGINT: %s" % (camera.returncode, camera.stderr.read()))
