#!/usr/bin/python3
"""The camera page in a real browser (Debian's chromium + chromium-driver + python3-selenium).

Usage: browser_test.py CAMSTAMP PHOTO_DIR SCREENSHOT.png
Starts `camstamp camera` on the test camera on 127.0.0.1 (a free port), loads the page headless,
checks that frames arrive, clicks Shoot and finds the photo on disk, presses G and finds the grid
in the preview's pixels, saves a screenshot of the page, and stops camstamp. Exit 0 when all
passed; otherwise a line saying what failed, and exit 1.
"""
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
                     "--window-size=1400,1000", "--hide-scrollbars"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    driver.get(url)
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
