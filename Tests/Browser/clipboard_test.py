#!/usr/bin/env python3
"""The editor page in Chromium on an X display (not headless: a headless Chromium keeps a
clipboard of its own), so that its Ctrl+C and Ctrl+V go through the display's CLIPBOARD,
the one the plugin's editor window copies into and pastes from. Run by the Swift test
CLAPClipboardTests, which drives the plugin's window on the same display:

    DISPLAY=:5 python3 Tests/Browser/clipboard_test.py http://127.0.0.1:9001/editor

It reads one command a line on standard input and answers on standard output with
"key: value" lines (the value JSON):

    ready: true                      the page is connected to the node
    paste                            Ctrl+V on the curve; once the node's curve changed:
    pasted: {"points": [...], "curvatures": [...]}
    copy [0, 220, 2, 440, ...]       the node's curve set to these /points arguments, then
                                     Ctrl+A, Ctrl+C on the curve; once the browser holds
    copied: "the clipboard's text"   the CLIPBOARD:

and quits when its input ends. A failure prints "failed: why" and exits non-zero.
"""
import argparse
import json
import os
import sys
import urllib.error

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from curve_editing_test import keys, set_curve  # noqa: E402
from editor_test import check, eventually, fail, get_state  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


def say(key, value):
    print(f"{key}: {json.dumps(value)}", flush=True)


def curve(state):
    return {"points": state["points"], "curvatures": state.get("curvatures", [])}


def paste(driver, base):
    """Ctrl+V on the curve: the page's paste event reads the system clipboard's text."""
    before = curve(get_state(base))
    keys(driver, (Keys.CONTROL, "v"))
    after = eventually(lambda: (c := curve(get_state(base))) != before and c, 30)
    said = "" if after else driver.execute_script("return document.getElementById('message').textContent;")
    check(after, f"Ctrl+V changed the node's curve: {get_state(base)}; the page said {said!r}")
    say("pasted", after)


def copy(driver, base, args):
    """The node's curve set to `args`, then all of it copied from the page."""
    points = [[args[i], args[i + 1]] for i in range(0, args.index("curvatures") if "curvatures" in args else len(args), 2)]
    set_curve(driver, base, args, points)
    driver.execute_script("window.toneshaperEditor.copied = null;")
    keys(driver, (Keys.CONTROL, "a"), (Keys.CONTROL, "c"))
    text = eventually(lambda: driver.execute_script("return window.toneshaperEditor.copied;"), 30)
    # The asynchronous clipboard writes for a focused document only: Chromium took the
    # display's focus when its window opened (no window manager gives it), and kept it.
    focused = driver.execute_script("return document.hasFocus();")
    check(text, f"Ctrl+C wrote the clipboard (the page {'had' if focused else 'did not have'} the focus)")
    say("copied", text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url", help="the editor's URL as the node printed it")
    arguments = parser.parse_args()
    base = arguments.url.split("/editor")[0]
    options = webdriver.ChromeOptions()
    # On the display, beside the plugin's window (the test host's is at the top left).
    for flag in ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--ozone-platform=x11", "--window-position=940,0",
                 "--window-size=960,1000", "--no-first-run", "--password-store=basic"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))
    try:
        origin = "/".join(arguments.url.split("/")[:3])
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        driver.get(arguments.url)
        check(eventually(lambda: driver.execute_script(
            "return !!(window.toneshaperEditor && window.toneshaperEditor.state) && document.getElementById('status').textContent === 'live';"), 30),
            "the page connects to the node")
        say("ready", True)
        for line in sys.stdin:
            command, _, rest = line.strip().partition(" ")
            if command == "paste":
                paste(driver, base)
            elif command == "copy":
                copy(driver, base, json.loads(rest))
            elif command:
                fail(f"unknown command {command!r}")
    except urllib.error.HTTPError as error:  # the node's refusal says why
        fail(f"{error}: {error.read().decode()}")
    except Exception as error:  # a Selenium error is a failure with its message
        fail(f"{type(error).__name__}: {error}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
