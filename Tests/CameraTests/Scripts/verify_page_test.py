#!/usr/bin/python3
"""The verify page in a real browser (Debian's chromium + chromium-driver + python3-selenium).

Usage: verify_page_test.py CAMSTAMP FOLDER ANCHORS.pem MANIFESTS_DIR CODE FILE...
Starts `camstamp verify --serve --port 0 --trust ANCHORS --manifests MANIFESTS_DIR`, opens the
page headless at 390x844 and 1280x800, picks each FILE in its file input, waits for the verdict
and saves a screenshot (FOLDER/verify-WIDTH-NAME.png); then types CODE, a proof code, in its
code field and does the same (result key "code"). Then plays another site: a POST to
/api/verify from another origin, and a name rebound to 127.0.0.1. Prints `result {JSON}` (per
size, per file: the verdict's title and text) and exits 0, or says what failed and exits 1.
"""
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

signal.pthread_sigmask(signal.SIG_SETMASK, [])

import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

camstamp, folder, anchors, manifests, code = sys.argv[1:6]
files = sys.argv[6:]


def fail(message):
    print("verify page test: " + message, file=sys.stderr)
    sys.exit(1)


server = subprocess.Popen(
    [camstamp, "verify", "--serve", "--port", "0", "--trust", anchors, "--manifests", manifests],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
driver = None
results = {}
try:
    url = server.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        fail("camstamp printed no URL: %r" % url)

    # Another site may not use it: a POST from another origin, and a rebound name, are refused.
    body = open(files[0], "rb").read()
    for headers in [{"Origin": "http://evil.example"}, {"Host": "evil.example"}]:
        request = urllib.request.Request(url + "api/verify?name=x.jpg", data=body, method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                fail("%s was answered %d" % (headers, answer.status))
        except urllib.error.HTTPError as error:
            if error.code not in (403, 421):
                fail("%s was answered %d, not 403 or 421" % (headers, error.code))

    driver = chromium.start()
    wait = WebDriverWait(driver, 60)
    for width, height in [(390, 844), (1280, 800)]:
        chromium.open_at(driver, wait, url, width, height)
        size = "%dx%d" % (width, height)
        results[size] = {}
        for path in files:
            name = os.path.basename(path)
            driver.execute_script("delete document.body.dataset.checked")
            driver.find_element(By.ID, "file").send_keys(path)
            wait.until(lambda d: d.execute_script("return document.body.dataset.checked") == name)
            title = driver.find_element(By.ID, "verdict-title").text
            text = driver.find_element(By.ID, "verdict-text").text
            facts = driver.find_element(By.ID, "facts").text
            # The whole answer on the screen: the verdict box fits the page's width.
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth > document.documentElement.clientWidth")
            # The changed blocks outlined on the photo: how many boxes, and the canvas's pixels at
            # the first box's centre (shown as is) and at the picture's middle (dimmed, unless changed).
            outlined = int(driver.execute_script("return document.body.dataset.outlined || 0"))
            results[size][name] = {"title": title, "text": text, "facts": facts, "overflow": overflow,
                                   "outlined": outlined}
            time.sleep(0.3)
            driver.save_screenshot(os.path.join(folder, "verify-%d-%s.png" % (width, os.path.splitext(name)[0])))
        # A code read off a printout, typed as a person types it: lower case, no hyphens.
        typed = code.lower().replace("-", "")
        driver.execute_script("delete document.body.dataset.checked")
        field = driver.find_element(By.ID, "code")
        field.clear()
        field.send_keys(typed)
        driver.find_element(By.CSS_SELECTOR, "#code-form button").click()
        wait.until(lambda d: d.execute_script("return document.body.dataset.checked") == typed)
        results[size]["code"] = {"title": driver.find_element(By.ID, "verdict-title").text,
                                 "facts": driver.find_element(By.ID, "facts").text}
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(folder, "verify-%d-code.png" % width))
    print("result " + json.dumps(results), file=sys.stderr)
finally:
    if driver is not None:
        driver.quit()
    server.send_signal(signal.SIGINT)
    try:
        status = server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        fail("camstamp verify --serve did not end within 10 s of SIGINT")
if status != 130:
    fail("camstamp verify --serve ended with %d after SIGINT, not 130: %s" % (status, server.stderr.read()))
