"""Headless Chromium for the page tests (Debian's chromium + chromium-driver + python3-selenium)."""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ARGUMENTS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"]


def start(extra=()):
    """A headless Chromium, running as root (--no-sandbox), pages given 30 s to load."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ARGUMENTS + list(extra):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    return driver


def open_at(driver, wait, url, width, height):
    """`url` in a viewport of exactly width x height CSS pixels (the window's frame taken off)."""
    driver.set_window_size(width, height)
    driver.get(url)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    wait.until(lambda d: d.execute_script("return [innerWidth, innerHeight]") == [width, height])
