#!/usr/bin/env python3
"""The editor page's tuning panel in real headless Chromium, against a running node: a .scl
file chosen in the page's file input is read by the page and sent to the node, which then
plays it and tells the page its name and degrees. Run by the Swift test
MIDIInput.theEditorLoadsAScaleTheNodePlays (which measures the pitch); by hand:

    python3 Tests/Browser/tuning_test.py http://127.0.0.1:9001/editor /path/19-edo.scl "19 equal divisions of the octave"

Prints one JSON line with what the page showed; exits non-zero on the first failure.
"""
import json
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.common.by import By


def fail(message):
    print(json.dumps({"failed": message}))
    sys.exit(1)


def eventually(predicate, timeout=60.0):
    """Polls predicate until it holds; a busy host only makes that take longer."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    return predicate()


def main():
    url, scale, description = sys.argv[1], sys.argv[2], sys.argv[3]
    base = url.split("/editor")[0]
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))
    try:
        driver.get(url)
        text = lambda element: driver.find_element(By.ID, element).text
        if not eventually(lambda: text("status") == "live" and text("tuning-name").startswith("12-TET")):
            fail(f"the page connects and shows no tuning: {text('status')!r}, {text('tuning-name')!r}")
        if [a for a in driver.execute_script("return Object.keys(window.toneshaperEditor.controls);") if a.startswith("tuning/")]:
            fail("the tuning's files are not among the generated controls")
        driver.find_element(By.ID, "tuning-scale").send_keys(scale)
        if not eventually(lambda: text("tuning-name") == description):
            fail(f"the page shows the scale's description: {text('tuning-name')!r}, {text('message')!r}")
        degrees = text("tuning-degrees")
        with urllib.request.urlopen(base + "/state", timeout=5) as response:
            tuning = json.loads(response.read()).get("tuning")
        if not tuning or tuning.get("description") != description:
            fail(f"the node plays the scale: {tuning}")
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        if errors:
            fail(f"JavaScript errors in the console: {errors}")
        print(json.dumps({"name": text("tuning-name"), "degrees": degrees, "degreeCount": len(tuning["cents"])}))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
