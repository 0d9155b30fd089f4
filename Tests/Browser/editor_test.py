#!/usr/bin/env python3
"""The editor page in real headless Chromium, and the WebSocket protocol, against a
running node. Run by the Swift test WebEditorTests (which starts the JACK server and the
node, records the audio and checks it); also runnable by hand:

    python3 Tests/Browser/editor_test.py http://127.0.0.1:9001/editor --screenshot out/editor.png

Prints one JSON line with what it found on stdout; exits non-zero on the first failure.
"""
import argparse
import json
import sys
import time
import urllib.request

import websocket  # websocket-client, installed with selenium
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def fail(message):
    print(json.dumps({"failed": message}))
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def get_state(base):
    with urllib.request.urlopen(base + "/state", timeout=5) as response:
        return json.loads(response.read())


def eventually(predicate, timeout=60.0):
    """Polls predicate until it holds; a busy host only makes that take longer."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    return predicate()


def websocket_protocol(base):
    """LISTEN, watch, commands, malformed JSON, a flood, too many sockets."""
    ws_url = base.replace("http://", "ws://") + "/"
    ws = websocket.create_connection(ws_url, timeout=5)
    ws.send(json.dumps({"COMMAND": "LISTEN", "DATA": "/toneshaper/amplitude"}))
    ws.send(json.dumps({"address": "amplitude", "args": [0.35], "id": 1}))
    got_ok = got_osc = False
    deadline = time.time() + 5
    while time.time() < deadline and not (got_ok and got_osc):
        opcode, data = ws.recv_data()
        if opcode == 1 and json.loads(data).get("id") == 1:
            got_ok = json.loads(data).get("ok") is True
        if opcode == 2 and data.startswith(b"/toneshaper/amplitude\x00"):
            got_osc = True
    check(got_ok, "a command over the WebSocket is acknowledged")
    check(got_osc, "LISTEN pushes the value as a binary OSC message")

    # A change and its state push arrive together (no 40 ms wait for a delayed ACK).
    ws.send(json.dumps({"watch": "state"}))
    ws.recv()
    delays = []
    for i in range(10):
        started = time.time()
        ws.send(json.dumps({"address": "amplitude", "args": [0.3 + 0.001 * (i + 1)], "id": 10 + i}))
        kinds = set()
        while kinds != {"ok", "state"}:
            opcode, data = ws.recv_data()
            if opcode == 1:
                message = json.loads(data)
                kinds.add("state" if "state" in message else "ok" if message.get("id") == 10 + i else "other")
        delays.append((time.time() - started) * 1000)
    delays.sort()
    check(delays[5] < 25, f"the state follows a change within milliseconds: {delays}")
    ws.close()
    ws = websocket.create_connection(ws_url, timeout=5)

    before = get_state(base)
    ws.send("{not json")
    reply = json.loads(ws.recv())
    check("not JSON" in reply.get("error", ""), f"malformed JSON is answered with an error: {reply}")
    ws.send(json.dumps({"address": "amplitude", "args": [7], "id": 2}))
    reply = json.loads(ws.recv())
    check("out of range" in reply.get("error", ""), f"an out-of-range value is refused: {reply}")
    check(get_state(base)["parameters"] == before["parameters"], "refused messages change nothing")

    # 10,000 messages as fast as they go: most are dropped, with one error a second.
    started = time.time()
    for i in range(10000):
        ws.send(json.dumps({"address": "amplitude", "args": [0.3], "id": 100 + i}))
    flood_seconds = time.time() - started
    ws.settimeout(1.0)
    refused = 0
    try:
        while True:
            opcode, data = ws.recv_data()
            if opcode == 1 and b"too many messages" in data:
                refused += 1
    except websocket.WebSocketTimeoutException:
        pass
    check(refused >= 1, "a flood is told it is too much")
    ws.close()

    # More sockets than the limit: the extra ones are refused, the node still serves.
    sockets, refused_sockets = [], 0
    for _ in range(100):
        try:
            sockets.append(websocket.create_connection(ws_url, timeout=5))
        except websocket.WebSocketBadStatusException as error:
            check(error.status_code == 503, f"too many sockets: 503, got {error.status_code}")
            refused_sockets += 1
    for s in sockets:
        s.close()
    check(refused_sockets > 0, "100 sockets: some are refused")
    check(get_state(base)["parameters"]["amplitude"] == 0.3, "the node still answers after the flood")
    return {"stateDelayMs": round(delays[5], 2), "floodSeconds": round(flood_seconds, 2), "socketsAccepted": len(sockets), "socketsRefused": refused_sockets}


def pointer(driver, canvas, path, pause=0.02):
    """A mouse gesture on the canvas through pointer events: down at path[0], moves, up."""
    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top];", canvas)
    mouse = PointerInput(interaction.POINTER_MOUSE, "mouse")
    actions = ActionBuilder(driver, mouse=mouse, duration=10)
    x0, y0 = path[0]
    actions.pointer_action.move_to_location(int(rect[0] + x0), int(rect[1] + y0))
    actions.pointer_action.pointer_down()
    for x, y in path[1:]:
        actions.pointer_action.move_to_location(int(rect[0] + x), int(rect[1] + y))
        actions.pointer_action.pause(pause)
    actions.pointer_action.pointer_up()
    actions.perform()


def to_pixel(driver, t, f):
    p = driver.execute_script("return window.toneshaperEditor.toPixel(arguments[0], arguments[1]);", t, f)
    return p["x"], p["y"]


def browser(url, base, screenshot, showcase=False, save_as=None):
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    try:
        driver.get(url)
        eventually(lambda: driver.execute_script(
            "return window.toneshaperEditor && window.toneshaperEditor.state !== null && document.getElementById('status').textContent === 'live';"), 10)
        check(driver.find_element(By.ID, "status").text == "live", "the page connects to the node")
        controls = driver.execute_script("return Object.keys(window.toneshaperEditor.controls);")
        for address in ["wave", "scale", "amplitude", "echo/offset", "echo/volume", "fidelity", "fourier-terms", "anti-alias"]:
            check(address in controls, f"a control for {address} is generated from the namespace: {controls}")
        # Labelled, grouped and ordered by the rows' presentation the namespace carries (NAME,
        # GROUP, EDITOR_PLACE), fidelity on a slider since its row is logarithmic.
        panel = driver.execute_script(
            "return Array.from(document.getElementById('controls').children).map((e) => e.className === 'control-group' ? '#' + e.textContent"
            " : e.querySelector('label').textContent);")
        check(panel[:3] == ["#Shape", "Fidelity", "#Sound"], f"the Shape group holds fidelity, then the Sound group: {panel}")
        check(panel.index("Wave") < panel.index("Echo volume") < panel.index("Amplitude") < panel.index("Fourier terms"),
              f"the sound's controls in the editors' order, the others after: {panel}")
        check("#MIDI" in panel and panel.index("#MIDI") < panel.index("Instrument") < panel.index("Root note"), f"the MIDI group: {panel}")
        check(driver.execute_script("return !!document.querySelector('#control-fidelity').parentElement.querySelector('input[type=range]');"),
              "fidelity gets a (logarithmic) slider")
        canvas = driver.find_element(By.ID, "curve")

        # Open from the shape library, and back.
        for name in ["chirp", "siren"]:
            driver.find_element(By.CSS_SELECTOR, f'#shapes .shape[data-shape="{name}"] .shape-open').click()
            check(eventually(lambda: get_state(base).get("name") == name), f"Load plays {name}")
            check(eventually(lambda: driver.execute_script("return window.toneshaperEditor.state.name;") == name), f"the page shows {name}")

        driver.find_element(By.ID, "snap-pitch").click()
        driver.find_element(By.ID, "tool-draw").click()   # a drag on empty space draws

        # Freehand: a level line across the whole cycle at 880 Hz (A5: snapped exactly).
        start_state = get_state(base)
        duration = start_state["parameters"]["duration"]
        _, y = to_pixel(driver, 0, 880)
        x_left, _ = to_pixel(driver, 0, 880)
        x_right, _ = to_pixel(driver, duration, 880)
        path = [(x_left - 10 + i * (x_right - x_left + 20) / 40, y) for i in range(41)]
        pointer(driver, canvas, path)
        drawn = eventually(lambda: get_state(base)["points"] == [[0, 880], [duration, 880]] and get_state(base))
        check(drawn, f"a stroke becomes the node's points: {get_state(base)['points']}")

        # The scope and spectrum follow: the spectrum's peak at 880 Hz.
        def spectrum_peak():
            scope = driver.execute_script("return window.toneshaperEditor.lastScope || null;")
            if not scope:
                return None
            bins = scope["spectrum"]
            b = max(range(len(bins)), key=lambda i: bins[i])
            return scope["low"] * (scope["high"] / scope["low"]) ** ((b + 0.5) / len(bins))
        check(eventually(lambda: (p := spectrum_peak()) and abs(p / 880 - 1) < 0.04, 5), f"the spectrum shows 880 Hz: {spectrum_peak()}")

        # A click adds a point; a drag moves it; a right-click removes it.
        x, y = to_pixel(driver, duration / 2, 1320)   # E6, a semitone
        pointer(driver, canvas, [(x, y)])
        added = eventually(lambda: len(get_state(base)["points"]) == 3 and get_state(base))
        check(added and abs(added["points"][1][1] - 1318.51) < 0.1, f"a click adds a point: {get_state(base)['points']}")
        x2, y2 = to_pixel(driver, duration / 2, 1000)
        pointer(driver, canvas, [(x, y), ((x + x2) / 2, (y + y2) / 2), (x2, y2)])
        moved = eventually(lambda: abs(get_state(base)["points"][1][1] - 987.77) < 0.1)
        check(moved, f"dragging moves the point (to B5): {get_state(base)['points']}")
        point = get_state(base)["points"][1]
        x2, y2 = to_pixel(driver, point[0], point[1])
        size = canvas.size
        ActionChains(driver).move_to_element_with_offset(canvas, int(x2 - size["width"] / 2), int(y2 - size["height"] / 2)).context_click().perform()
        removed = eventually(lambda: len(get_state(base)["points"]) == 2)
        check(removed, f"a right-click removes the point: {get_state(base)['points']}")

        # Undo brings it back, redo removes it again.
        driver.find_element(By.ID, "undo").click()
        check(eventually(lambda: len(get_state(base)["points"]) == 3), "undo restores the point")
        driver.find_element(By.ID, "redo").click()
        check(eventually(lambda: len(get_state(base)["points"]) == 2), "redo removes it again")

        # A change by another controller appears in the page.
        request = urllib.request.Request(base + "/control/wave", data=b'["Triangle"]', method="POST")
        urllib.request.urlopen(request, timeout=5).read()
        shown = eventually(lambda: driver.execute_script("return document.getElementById('control-wave').value;") == "Triangle")
        check(shown, "a change made elsewhere shows in the page")
        request = urllib.request.Request(base + "/control/wave", data=b'["Sine"]', method="POST")
        urllib.request.urlopen(request, timeout=5).read()

        # A generated control drives the node.
        select = driver.find_element(By.ID, "control-scale")
        driver.execute_script("arguments[0].value = 'Linear'; arguments[0].dispatchEvent(new Event('change'));", select)
        check(eventually(lambda: get_state(base)["parameters"]["scale"] == "Linear"), "the scale menu sets the node's scale")
        driver.execute_script("arguments[0].value = 'None'; arguments[0].dispatchEvent(new Event('change'));", select)
        check(eventually(lambda: get_state(base)["parameters"]["scale"] == "None"), "and back")
        driver.find_element(By.ID, "undo").click()
        check(eventually(lambda: get_state(base)["parameters"]["scale"] == "Linear"), "undo takes a control back too")
        driver.find_element(By.ID, "redo").click()
        check(eventually(lambda: get_state(base)["parameters"]["scale"] == "None"), "and redo forward")

        final_points = get_state(base)["points"]
        if save_as:
            driver.find_element(By.ID, "save-name").send_keys(save_as)
            driver.find_element(By.ID, "save").click()
            check(eventually(lambda: any(e["name"] == save_as for e in json.loads(urllib.request.urlopen(base + "/library").read())["user"])),
                  "Save puts the drawing into the library")
        if showcase:
            # For the documentation's screenshot: a curve worth looking at.
            request = urllib.request.Request(base + "/control/points", method="POST",
                                             data=json.dumps([0, 600, 0.6, 1250, 1.2, 900, 2, 1400, 2.5, 1100, 3.2, 700, 4, 600,
                                                              "curvatures", 0.6, -0.4, 0, 0.8, -0.7, 0.3]).encode())
            urllib.request.urlopen(request, timeout=5).read()
            eventually(lambda: len(get_state(base)["points"]) == 7)
        time.sleep(0.5)   # a playhead frame or two for the picture only: no check depends on it
        if screenshot:
            driver.execute_script("window.scrollTo(0, 0);")   # opening a library card scrolled down
            driver.save_screenshot(screenshot)
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(not errors, f"no JavaScript errors in the console: {errors}")
        return {"points": final_points, "controls": len(controls)}
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url", help="the editor's URL as the node printed it")
    parser.add_argument("--screenshot")
    parser.add_argument("--skip-protocol", action="store_true")
    parser.add_argument("--save-as", help="save the drawing into the node's library under this name")
    parser.add_argument("--showcase", action="store_true", help="draw a livelier curve before the screenshot (the documentation's)")
    arguments = parser.parse_args()
    base = arguments.url.split("/editor")[0]
    result = {}
    if not arguments.skip_protocol:
        result["protocol"] = websocket_protocol(base)
    result["browser"] = browser(arguments.url, base, arguments.screenshot, arguments.showcase, arguments.save_as)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
