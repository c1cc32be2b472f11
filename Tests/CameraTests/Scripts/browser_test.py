#!/usr/bin/python3
"""The camera page in a real browser (Debian's chromium + chromium-driver + python3-selenium).

Usage: browser_test.py CAMSTAMP PHOTO_DIR SCREENSHOT.png
Starts `camstamp camera` on the test camera on 127.0.0.1 (a free port), loads the page headless,
checks that frames arrive, clicks Shoot and finds the photo on disk, presses G and finds the grid
in the preview's pixels, saves a screenshot of the page (and beside it the page at 390x844 and
1280x800), then plays another site: a page on another origin that posts to the camera, and a name
rebound to 127.0.0.1 (DNS rebinding, with Chromium's host resolver rules); neither may change or
read anything. Stops camstamp. Exit 0 when all passed; otherwise a line saying what failed, and
exit 1.
"""
import http.server
import json
import threading
import urllib.request
import os
import signal
import subprocess
import sys
import time

# The test runner may start this with signals blocked, and a blocked mask is inherited: Xvfb,
# Chromium and camstamp must be stoppable by the signals sent to them.
signal.pthread_sigmask(signal.SIG_SETMASK, [])

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

camstamp, photo_dir, screenshot = sys.argv[1:4]


def fail(message):
    print("browser test: " + message, file=sys.stderr)
    sys.exit(1)


camera = subprocess.Popen(
    [camstamp, "camera", "--source", "test", "--size", "1280x720", "--preset", "timestamp", "--preset", "credit",
     "--var", "author=camstamp", "--web", "127.0.0.1:0", "-o", photo_dir],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
driver = None
try:
    url = camera.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        fail("camstamp printed no URL: %r %s" % (url, camera.stderr.read() if camera.poll() is not None else ""))

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--hide-scrollbars",
                     # Another site's name that resolves to this machine, as a rebinding DNS server makes it.
                     "--host-resolver-rules=MAP evil.example 127.0.0.1"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    # The MJPEG preview, read back through a canvas (webrtc_test.py tests the WebRTC one).
    driver.get(url + ("&" if "?" in url else "?") + "preview=mjpeg")
    wait = WebDriverWait(driver, 20)

    # Frames arrive: the preview has a size, and what a canvas reads from it changes (the test
    # pattern scrolls).
    wait.until(lambda d: d.execute_script("return document.getElementById('preview').naturalWidth") > 0)
    sample = """
        const img = document.getElementById('preview');
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
        const context = canvas.getContext('2d');
        context.drawImage(img, 0, 0);
        const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
        let sum = 0;
        for (let i = 0; i < data.length; i += 4 * 97) sum = (sum * 31 + data[i]) % 1000000007;
        return [canvas.width, canvas.height, sum];
    """
    first = driver.execute_script(sample)
    changed = False
    for _ in range(100):
        time.sleep(0.1)
        if driver.execute_script(sample)[2] != first[2]:
            changed = True
            break
    if not changed:
        fail("the preview did not change in 10 s: no frames arrive")
    if first[0] > 1280:
        fail("the preview is %d px wide, more than 1280" % first[0])
    wait.until(lambda d: d.find_element(By.ID, "status").text.startswith("live"))

    # Shoot: the status names the photo once it is on disk.
    shoot = driver.find_element(By.XPATH, "//button[normalize-space()='Shoot']")
    shoot.click()
    wait.until(lambda d: d.find_element(By.ID, "status").text.startswith("saved "))
    path = driver.find_element(By.ID, "status").text[len("saved "):]
    if not (os.path.isfile(path) and os.path.dirname(path) == os.path.realpath(photo_dir)):
        fail("Shoot said %r, which is not a file in %s" % (path, photo_dir))
    with open(path, "rb") as photo:
        if photo.read(2) != b"\xff\xd8":
            fail(path + " is not a JPEG")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gallery img")) == 1)

    # G: the grid shows. At a third of the width, the light line is much brighter than its dark
    # companion one pixel to the right, on almost every row.
    grid_rows = """
        const img = document.getElementById('preview');
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
        const context = canvas.getContext('2d');
        context.drawImage(img, 0, 0);
        const x = Math.floor(canvas.width / 3);
        const data = context.getImageData(x, 0, 2, canvas.height).data;
        let lined = 0;
        for (let y = 0; y < canvas.height; y++) {
            const light = data[y * 8] + data[y * 8 + 1] + data[y * 8 + 2];
            const dark = data[y * 8 + 4] + data[y * 8 + 5] + data[y * 8 + 6];
            if (light - dark > 90) lined++;
        }
        return lined / canvas.height;
    """
    before = driver.execute_script(grid_rows)
    driver.find_element(By.TAG_NAME, "body").send_keys("g")
    wait.until(lambda d: d.find_element(By.ID, "grid").get_attribute("aria-pressed") == "true")
    after = 0
    for _ in range(100):
        time.sleep(0.1)
        after = driver.execute_script(grid_rows)
        if after > 0.9:
            break
    if before > 0.3 or after <= 0.9:
        fail("grid not found at a third of the width: %.2f of rows before G, %.2f after" % (before, after))
    driver.save_screenshot(screenshot)
    stem = screenshot[:-4] if screenshot.endswith(".png") else screenshot
    for width, height in [(390, 844), (1280, 800)]:
        driver.set_window_size(width, height)
        time.sleep(0.5)
        inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
        # The window's frame takes some of the size: make the page itself the size asked for.
        driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
        time.sleep(0.5)
        driver.save_screenshot("%s-%dx%d.png" % (stem, width, height))
    driver.set_window_size(1400, 1000)

    base = url.split("?")[0].rstrip("/")
    port = int(base.rsplit(":", 1)[1])

    def camera_state():
        with urllib.request.urlopen(base + "/api/state", timeout=10) as answer:
            return json.load(answer)

    # Another site's page posts to the camera as any page can (no-cors fetches and a form).
    evil_page = ("<!doctype html><title>waiting</title><form id=f method=post target=sink enctype=text/plain "
                 "action='%s/api/shoot'><input name='{\"x\":' value='1}'></form><iframe name=sink></iframe><script>"
                 "const opts = (body) => ({method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body});"
                 "Promise.allSettled([fetch('%s/api/settings', opts('{\"grid\": false}')), fetch('%s/api/shoot', opts(''))])"
                 ".then(() => { document.getElementById('f').submit(); setTimeout(() => document.title = 'done', 1500); });"
                 "</script>" % (base, base, base)).encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(evil_page)

        def log_message(self, *args):
            pass

    evil = http.server.HTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    driver.get("http://127.0.0.1:%d/" % evil.server_address[1])
    wait.until(lambda d: d.title == "done")
    evil.shutdown()
    after_evil = camera_state()
    if after_evil["grid"] is not True or len(after_evil["shots"]) != 1:
        fail("another site changed the camera: grid %s, %d photos" % (after_evil["grid"], len(after_evil["shots"])))

    # The rebound name reads nothing: not the state, not the photos' paths.
    driver.get("http://evil.example:%d/api/state" % port)
    text = driver.find_element(By.TAG_NAME, "body").text
    if "does not answer to the name" not in text or os.path.realpath(photo_dir) in text:
        fail("a rebound name read the camera: %r" % text[:300])
    print("browser test: frames %dx%d, photo %s, grid rows %.2f -> %.2f" % (first[0], first[1], path, before, after))
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
    fail("camstamp exited %d after SIGINT, expected 130: %s" % (camera.returncode, camera.stderr.read()))
