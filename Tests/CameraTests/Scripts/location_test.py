#!/usr/bin/python3
"""The page's Location button in a real browser (Debian's chromium + chromium-driver + python3-selenium).

Usage: location_test.py CAMSTAMP PHOTO_DIR CERT.pem KEY.pem
Starts `camstamp camera` over HTTPS (--tls-cert/--tls-key) on 127.0.0.1 (a free port), loads the
page headless with the position emulated (Paris) and the permission granted, as a phone's user
allows it, presses Location, waits for the button to show the accuracy, takes a photo from the page
and prints `photo: PATH`. Exit 0 when all passed; otherwise a line saying what failed, and exit 1.
"""
import os
import signal
import subprocess
import sys
import time

signal.pthread_sigmask(signal.SIG_SETMASK, [])

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

camstamp, photo_dir, cert, key = sys.argv[1:5]


def fail(message):
    print("location test: " + message, file=sys.stderr)
    sys.exit(1)


camera = subprocess.Popen(
    [camstamp, "camera", "--source", "test", "--size", "320x240", "--gps", "off", "--text", "{latlon|no fix}",
     "--web", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key, "-o", photo_dir],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
driver = None
try:
    url = camera.stdout.readline().strip()
    if not url.startswith("https://127.0.0.1:"):
        fail("camstamp printed no https URL: %r" % url)
    origin = url.rstrip("/")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # The test's own certificate: trusted as a user who accepted it once.
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=390,844", "--ignore-certificate-errors"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd(
        "Emulation.setGeolocationOverride", {"latitude": 48.85341, "longitude": 2.3488, "accuracy": 12})
    driver.get(url)
    wait = WebDriverWait(driver, 20)
    if not driver.execute_script("return window.isSecureContext"):
        fail("the HTTPS page is not a secure context")
    button = wait.until(lambda d: d.find_element(By.ID, "location"))
    if button.get_attribute("disabled"):
        fail("the Location button is disabled on the HTTPS page")
    button.click()
    wait.until(lambda d: d.find_element(By.ID, "location").text.startswith("Location: ±"))
    # The position is sent as the button shows it; a photo asked for after it has it.
    time.sleep(0.5)
    shot = driver.execute_async_script(
        "const done = arguments[0];"
        "fetch('/api/shoot', {method: 'POST'}).then(r => r.json()).then(done, e => done({error: String(e)}));")
    if "path" not in shot:
        fail("no photo: %r" % shot)
    print("photo: " + shot["path"], file=sys.stderr)
finally:
    if driver is not None:
        driver.quit()
    camera.send_signal(signal.SIGINT)
    try:
        camera.wait(timeout=30)
    except subprocess.TimeoutExpired:
        camera.kill()
