#!/usr/bin/env python3
"""Stands in for the browser a session manager's "show GUI" opens: given the editor's URL,
it connects to the node's WebSocket as the editor page does, watches the state, and writes
what happens to a log (one line each: its pid, "state" when the node's state arrived,
"hide <reason>" when the node asked it to close, after which it closes and exits).

    session_page.py URL LOG
"""
import json
import os
import sys
import urllib.parse

import websocket  # websocket-client, installed by Scripts/setup.sh


def main():
    url, log = sys.argv[1], sys.argv[2]

    def note(text):
        with open(log, "a") as f:
            f.write(text + "\n")

    where = urllib.parse.urlparse(url)
    note(f"pid {os.getpid()} {url}")
    socket = websocket.create_connection(f"ws://{where.netloc}/", origin=f"http://{where.netloc}", timeout=120)
    socket.send(json.dumps({"watch": "state"}))
    while True:
        message = json.loads(socket.recv())
        if "state" in message:
            note("state")
        elif "hide" in message:
            note("hide " + message["hide"])
            socket.close()
            return


if __name__ == "__main__":
    main()
