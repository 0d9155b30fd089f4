#!/usr/bin/env python3
"""Issue 43 in the editor page, in real headless Chromium against a running node (the
siren, 4 s, 500...1500 Hz): a curvature handle dragged, zoom and pan, a selection
stretched by two in time, copy and paste through the clipboard, the shape library (thumbnails, save as,
rename, open), and a point typed as A4+12. Run by the Swift test WebCurveEditingTests,
which measures the audio; also runnable by hand:

    python3 Tests/Browser/curve_editing_test.py http://127.0.0.1:9001/editor --export bent.wav

Prints one JSON line with what it found on stdout; exits non-zero on the first failure.
"""
import argparse
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from editor_test import check, eventually, fail, get_state, pointer, to_pixel  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.mouse_button import MouseButton  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


def post(base, address, args):
    request = urllib.request.Request(base + "/control/" + address, data=json.dumps(args).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def library(base):
    with urllib.request.urlopen(base + "/library", timeout=5) as response:
        return json.loads(response.read())


def set_curve(driver, base, args, points):
    """The node's curve set from elsewhere (HTTP), and shown by the page."""
    post(base, "points", args)
    check(eventually(lambda: driver.execute_script("return window.toneshaperEditor.points;") == points, 10),
          f"the page shows the curve set: {driver.execute_script('return window.toneshaperEditor.points;')}")


def at_canvas(driver, canvas, x, y, actions=None):
    """Actions with the pointer moved to (x, y) on the canvas, in the viewport's
    coordinates (an element's offsets are from its visible part's centre)."""
    left, top = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top];", canvas)
    actions = actions or ActionChains(driver)
    actions.w3c_actions.pointer_action.move_to_location(int(left + x), int(top + y))
    return actions


def keys(driver, *chords):
    """Key chords on the focused curve, such as (Keys.CONTROL, "a")."""
    driver.execute_script("document.getElementById('curve').focus();")
    for chord in chords:
        actions = ActionChains(driver)
        for key in chord[:-1]:
            actions.key_down(key)
        actions.send_keys(chord[-1])
        for key in reversed(chord[:-1]):
            actions.key_up(key)
        actions.perform()


def curvature(driver, canvas, base, export):
    """The handle of a 600 -> 1400 Hz segment dragged 50 px down: curvature 0.5 (100 px
    a unit, down on a rising segment starts it later), so its middle plays 600 + 800 / 4 =
    800 Hz; the render of the node's shape is saved for the Swift test to measure."""
    set_curve(driver, base, [0, 600, 4, 1400], [[0, 600], [4, 1400]])
    x, y = to_pixel(driver, 2, 1000)
    pointer(driver, canvas, [(x, y), (x, y + 25), (x, y + 50)])
    bent = eventually(lambda: (c := get_state(base).get("curvatures")) and c == [0.5] and c)
    check(bent, f"the handle's drag bends the segment: {get_state(base)}")
    middle = eventually(lambda: (m := driver.execute_script("return curveAt(2);")) and abs(m - 800) < 1e-6 and m, 5)
    check(middle, f"the page draws the middle at 800 Hz: {driver.execute_script('return curveAt(2);')}")
    handle = driver.execute_script("return handleOf(0);")
    check(abs(handle[1] - 800) < 1e-6, f"with the handle there: {handle}")
    with urllib.request.urlopen(base + "/export?cycles=1&format=wav", timeout=30) as response:
        with open(export, "wb") as f:
            f.write(response.read())
    # Alt-click on the handle straightens it again.
    hx, hy = to_pixel(driver, 2, middle)
    at_canvas(driver, canvas, hx, hy, ActionChains(driver).key_down(Keys.ALT)).click().key_up(Keys.ALT).perform()
    check(eventually(lambda: "curvatures" not in get_state(base)), f"Alt-click straightens the segment: {get_state(base)}")
    return {"curvature": bent[0], "drawnMiddleHz": round(middle, 2)}


def zoom_and_pan(driver, canvas, base):
    """Ctrl+wheel zooms time, Shift+wheel pitch, the middle button pans; a click while
    zoomed adds its point where the zoomed grid says; Fit shows it all again."""
    set_curve(driver, base, [0, 600, 4, 1400], [[0, 600], [4, 1400]])
    view = lambda: driver.execute_script("return window.toneshaperEditor.view;")
    origin = ScrollOrigin.from_element(canvas)
    ActionChains(driver).key_down(Keys.CONTROL).scroll_from_origin(origin, 0, -400).key_up(Keys.CONTROL).perform()
    check(eventually(lambda: view()["a1"] - view()["a0"] < 0.9, 5), f"Ctrl+wheel zooms time in: {view()}")
    ActionChains(driver).key_down(Keys.SHIFT).scroll_from_origin(origin, 0, -400).key_up(Keys.SHIFT).perform()
    check(eventually(lambda: view()["v1"] - view()["v0"] < 0.9, 5), f"Shift+wheel zooms pitch in: {view()}")
    before = view()
    left, top = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];", canvas)
    mouse = PointerInput(interaction.POINTER_MOUSE, "mouse")
    actions = ActionBuilder(driver, mouse=mouse, duration=10)
    actions.pointer_action.move_to_location(int(left), int(top)).pointer_down(MouseButton.MIDDLE)
    actions.pointer_action.move_to_location(int(left + 60), int(top + 30)).pointer_up(MouseButton.MIDDLE)
    actions.perform()
    panned = view()
    check(panned["a0"] < before["a0"] and panned["v0"] > before["v0"], f"the middle button pans: {before} -> {panned}")
    x, y = to_pixel(driver, 2.1, 1000)
    pointer(driver, canvas, [(x, y)])
    added = eventually(lambda: len(get_state(base)["points"]) == 3 and get_state(base)["points"][1])
    check(added and abs(added[0] - 2.1) < 0.01 and abs(added[1] - 1000) < 5, f"a click while zoomed lands where the grid says: {get_state(base)['points']}")
    driver.find_element(By.ID, "fit-view").click()
    check(view() == {"a0": 0, "a1": 1, "v0": 0, "v1": 1}, f"Fit shows the whole: {view()}")
    return {"zoomed": before, "panned": panned}


def stretch(driver, canvas, base):
    """Three points framed with a rubber band and stretched by two in time about their centre."""
    set_curve(driver, base, [0, 600, 1.5, 800, 2, 1000, 2.5, 1200, 4, 700],
              [[0, 600], [1.5, 800], [2, 1000], [2.5, 1200], [4, 700]])
    x0, y0 = to_pixel(driver, 1.3, 1300)
    x1, y1 = to_pixel(driver, 2.7, 750)
    pointer(driver, canvas, [(x0, y0), ((x0 + x1) / 2, (y0 + y1) / 2), (x1, y1)])
    selected = driver.execute_script("return [...window.toneshaperEditor.selection].sort();")
    check(selected == [1, 2, 3], f"the rubber band selects the three points inside it: {selected}")
    driver.find_element(By.ID, "stretch-factor").clear()
    driver.find_element(By.ID, "stretch-factor").send_keys("2")
    driver.find_element(By.ID, "stretch-time").click()
    want = [[0, 600], [1, 800], [2, 1000], [3, 1200], [4, 700]]
    same = lambda points: len(points) == len(want) and all(p[0] == w[0] and abs(p[1] - w[1]) < 1e-6 for p, w in zip(points, want))
    check(eventually(lambda: same(get_state(base)["points"])), f"stretched by two about 2 s: {get_state(base)['points']}")
    stretched = get_state(base)["points"]
    # The selection's frame: its right handle dragged from 3 s to 3.5 s stretches by 1.5
    # about 2 s (the left edge follows, to 0.5 s).
    frame = driver.execute_script("const f = selectionFrame(); return f.handles.find((h) => h[0] === 'right');")
    x3, _ = to_pixel(driver, 3, 1000)
    x35, _ = to_pixel(driver, 3.5, 1000)
    pointer(driver, canvas, [(frame[1], frame[2]), (frame[1] + (x35 - x3) / 2, frame[2]), (frame[1] + x35 - x3, frame[2])])
    times = eventually(lambda: (t := [p[0] for p in get_state(base)["points"]]) and abs(t[1] - 0.5) < 0.02 and abs(t[3] - 3.5) < 0.02 and t)
    check(times and times[2] == 2, f"the frame's handle stretches about the centre: {get_state(base)['points']}")
    return stretched


def clipboard(driver, base):
    """Ctrl+A, Ctrl+C on a bent curve; another curve; Ctrl+V gives the first back."""
    args = [0, 600, 1, 1300, 3, 700, 4, 900, "curvatures", 0.5, -0.25, 0]
    points = [[0, 600], [1, 1300], [3, 700], [4, 900]]
    set_curve(driver, base, args, points)
    keys(driver, (Keys.CONTROL, "a"), (Keys.CONTROL, "c"))
    check(eventually(lambda: driver.execute_script("return !!window.toneshaperEditor.copied;"), 10), "Ctrl+C writes the clipboard")
    set_curve(driver, base, [0, 1000], [[0, 1000]])
    keys(driver, (Keys.CONTROL, "v"))
    pasted = eventually(lambda: (s := get_state(base))["points"] == points and s)
    check(pasted, f"the pasted curve is the copied one: {get_state(base)}")
    check(pasted.get("curvatures") == [0.5, -0.25, 0], f"with its bends: {pasted.get('curvatures')}")
    text = driver.execute_script("return window.toneshaperEditor.copied;")
    check(text and text.splitlines()[1:] == ["0 600 0.5", "1 1300 -0.25", "3 700", "4 900"], f"the clipboard's text, the node's: {text!r}")
    return text


def shape_library(driver, base):
    """Built-ins listed with thumbnails; the current shape saved, renamed, and a built-in opened."""
    listed = library(base)
    names = [e["name"] for e in listed["builtIn"]]
    check("siren" in names and "chirp" in names, f"the built-ins are listed: {names}")
    check(all(len(e.get("thumbnail", [])) >= 98 for e in listed["builtIn"]), "every built-in has a thumbnail outline")
    cards = driver.execute_script("return [...document.querySelectorAll('#shapes .shape')].map((e) => e.dataset.shape);")
    check(set(names) <= set(cards), f"the page shows a card for each built-in: {cards}")
    driver.find_element(By.ID, "save-name").clear()
    driver.find_element(By.ID, "save-name").send_keys("bent-copy")
    driver.find_element(By.ID, "save").click()
    check(eventually(lambda: driver.execute_script(
        "return !!document.querySelector('#shapes .shape[data-shape=\"bent-copy\"] .shape-rename');"), 10), "the saved shape is listed as yours")
    saved = next(e for e in library(base)["user"] if e["name"] == "bent-copy")
    card = driver.find_element(By.CSS_SELECTOR, '#shapes .shape[data-shape="bent-copy"]')
    card.find_element(By.CLASS_NAME, "shape-rename").click()
    field = card.find_element(By.CLASS_NAME, "shape-rename-field")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("renamed" + Keys.ENTER)
    check(eventually(lambda: [e["name"] for e in library(base)["user"]] == ["renamed"], 10), f"renamed: {library(base)['user']}")
    check(eventually(lambda: driver.execute_script(
        "return !!document.querySelector('#shapes .shape[data-shape=\"renamed\"]');"), 10), "the page lists the new name")
    driver.find_element(By.CSS_SELECTOR, '#shapes .shape[data-shape="chirp"] .shape-open').click()
    check(eventually(lambda: get_state(base).get("name") == "chirp"), "a built-in's card opens it")
    driver.find_element(By.CSS_SELECTOR, '#shapes .shape[data-shape="siren"] .shape-open').click()
    check(eventually(lambda: get_state(base).get("name") == "siren"), "and the siren again")
    return {"builtIns": len(names), "savedThumbnailPoints": len(saved["thumbnail"]) // 2}


def exact_entry(driver, canvas, base):
    """A one-point curve; double-click the point and type A4+12 (443.06 Hz)."""
    set_curve(driver, base, [0, 600], [[0, 600]])
    # The library's cards lie below the curve: opening one scrolled the page.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", canvas)
    x, y = to_pixel(driver, 0, 600)
    at_canvas(driver, canvas, x, y).double_click().perform()
    check(eventually(lambda: driver.find_element(By.ID, "entry").is_displayed(), 5), "a double-click opens the entry")
    field = driver.find_element(By.ID, "entry-frequency")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("A4+12" + Keys.ENTER)
    typed = eventually(lambda: abs(get_state(base)["points"][0][1] - 440 * 2 ** (12 / 1200)) < 1e-6 and get_state(base)["points"])
    check(typed, f"A4+12 is 443.06 Hz: {get_state(base)['points']}")
    return typed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url", help="the editor's URL as the node printed it")
    parser.add_argument("--export", required=True, help="where to write the render of the bent curve (WAV)")
    arguments = parser.parse_args()
    base = arguments.url.split("/editor")[0]
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))
    try:
        # The page writes the clipboard as a user's page would (navigator.clipboard).
        origin = "/".join(arguments.url.split("/")[:3])
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        driver.get(arguments.url)
        check(eventually(lambda: driver.execute_script(
            "return !!(window.toneshaperEditor && window.toneshaperEditor.state) && document.getElementById('status').textContent === 'live';"), 20),
            "the page connects to the node")
        canvas = driver.find_element(By.ID, "curve")
        result = {"curvature": curvature(driver, canvas, base, arguments.export)}
        result["zoom"] = zoom_and_pan(driver, canvas, base)
        result["stretched"] = stretch(driver, canvas, base)
        result["clipboard"] = clipboard(driver, base)
        result["library"] = shape_library(driver, base)
        result["typed"] = exact_entry(driver, canvas, base)
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(not errors, f"no JavaScript errors in the console: {errors}")
        print(json.dumps(result))
    except Exception as error:  # a Selenium error is a failure with its message
        fail(f"{type(error).__name__}: {error}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
