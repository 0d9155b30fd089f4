// ToneShaper's curve editor. The node holds the state: every edit is sent over the
// WebSocket at once and the page shows what the node reports back, so edits from any
// other controller (OSC, MIDI, another page) appear here too. The controls beside the
// curve are generated from the node's OSCQuery namespace, so a new parameter needs no
// change here. The curve's view is curve-view.js, its editing curve-editing.js and
// curve-selection.js, the shape library library.js.
"use strict";

const token = new URLSearchParams(location.search).get("token");
const withToken = (url) => token ? url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : url;
const $ = (id) => document.getElementById(id);

// Addresses shown as the curve's own fields rather than generated controls.
const CURVE_FIELDS = { "frequency/min": "min-frequency", "frequency/max": "max-frequency", "duration": "duration" };

const editor = {
  prefix: "/toneshaper",
  state: null,              // the node's state, as last reported
  points: [],               // what the page draws: the node's points, or the edit in progress
  gesture: null,            // the pointer gesture in progress
  undo: [], redo: [],
  socket: null, nextID: 1,
  replies: new Map(),       // request id -> resolve, for the requests awaited (request())
  pendingPoints: null,      // points to send at the next animation frame
  controls: {},             // address -> update(value)
  clock: null,              // playhead estimate: { at: ms, position: s }
};
window.toneshaperEditor = editor;   // for tests and the console

// ---------- the node ----------

function send(address, args) {
  if (!editor.socket || editor.socket.readyState !== WebSocket.OPEN) { say("not connected to the node"); return; }
  editor.socket.send(JSON.stringify({ address, args, id: editor.nextID++ }));
}

/// Sends `message` and resolves with the node's reply to it (an error is said, and
/// resolves too: the caller looks at `ok`).
function request(message) {
  if (!editor.socket || editor.socket.readyState !== WebSocket.OPEN) { say("not connected to the node"); return Promise.resolve({}); }
  const id = editor.nextID++;
  return new Promise((resolve) => {
    editor.replies.set(id, resolve);
    editor.socket.send(JSON.stringify({ ...message, id }));
  });
}

function say(text) { $("message").textContent = text; }

function connect() {
  const socket = new WebSocket(withToken(`ws://${location.host}/`));
  editor.socket = socket;
  socket.onopen = () => {
    $("status").textContent = "live"; $("status").className = "status live";
    socket.send(JSON.stringify({ watch: "state" }));
    socket.send(JSON.stringify({ query: "stats", id: 0 }));
    if ($("monitor").checked) socket.send(JSON.stringify({ watch: "scope" }));
  };
  socket.onmessage = (event) => {
    if (typeof event.data !== "string") return;
    const message = JSON.parse(event.data);
    const waiting = editor.replies.get(message.id);
    if (waiting) { editor.replies.delete(message.id); waiting(message); }
    if (message.hide) hide(message.hide);
    else if (message.state) adopt(message.state);
    else if (message.stats) syncClock(message.stats);
    else if (message.scope) drawMonitors(message.scope);
    else if (message.error) { say(message.error); refused(); }
    else if (message.ok) say((message.notes || []).join("; "));
  };
  socket.onclose = () => {
    if (editor.hidden) return;
    $("status").textContent = "disconnected: retrying"; $("status").className = "status down";
    setTimeout(connect, 1000);
  };
}

// The session manager hid the node's GUI: close the window where the browser lets a page
// do that, else step aside (no connection, so the node counts this page as closed).
function hide(reason) {
  editor.hidden = true;
  editor.socket.close();
  window.close();
  $("status").textContent = "hidden"; $("status").className = "status down";
  const cover = document.createElement("div");
  cover.id = "hidden-cover";
  cover.textContent = reason + " Reload the page to show the editor again.";
  document.body.appendChild(cover);
}

function syncClock(stats) {
  if (!(stats.sampleRate > 0)) return;
  // Frames played since the node started; the phase within the cycle is exact only while
  // it has played since then without a stop.
  const position = stats.periods * stats.bufferSize / stats.sampleRate;
  if (!editor.clock || !editor.clock.fromPlay) editor.clock = { at: performance.now(), position, fromPlay: false };
}

/// The curve as the node has it (its curvatures left out while every segment is straight).
function showNodeCurve() {
  const state = editor.state;
  const count = editor.points.length;
  editor.points = state.points.map((p) => p.slice());
  editor.curvatures = state.curvatures ? state.curvatures.slice() : editor.points.slice(1).map(() => 0);
  if (editor.points.length !== count) editor.selection = new Set([...editor.selection].filter((i) => i < editor.points.length));
}

/// The node refused an edit: the page shows the curve the node kept.
function refused() { if (editor.state && !editor.gesture && !editor.pendingPoints) showNodeCurve(); }

function adopt(state) {
  const was = editor.state;
  editor.state = state;
  if (state.playing && (!was || !was.playing) && was) editor.clock = { at: performance.now(), position: 0, fromPlay: true };
  // The node's points, unless the user is in the middle of a gesture (they will be sent).
  if (!editor.gesture && !editor.pendingPoints) showNodeCurve();
  $("doc-name").textContent = state.name ? "· " + state.name : "";
  for (const [address, update] of Object.entries(editor.controls)) {
    if (address in state.parameters) update(state.parameters[address]);
  }
  for (const [address, id] of Object.entries(CURVE_FIELDS)) {
    if (document.activeElement !== $(id)) $(id).value = +Number(state.parameters[address]).toPrecision(8);
  }
  $("play").disabled = state.playing; $("stop").disabled = !state.playing;
  if (typeof showTuning === "function") showTuning(state.tuning);  // tuning.js
}

// ---------- controls generated from the OSCQuery namespace ----------

// Each parameter's node carries its row's presentation (OSCQueryNamespace.presentation):
// NAME labels the control, GROUP and GROUP_PLACE section the panel, EDITOR_PLACE orders
// the controls the plugin's editor shows too (the others follow, by name), STEP steps an
// entry field and LOGARITHMIC makes a slider's scale. The page decides none of it.
function buildControls(root) {
  const container = $("controls");
  container.textContent = "";
  const nodes = [];
  const visit = (node) => {
    const address = node.FULL_PATH.slice(editor.prefix.length + 1);
    // The tuning's files have a panel of their own (tuning.js).
    if (node.ACCESS === 3 && node.TYPE && !(address in CURVE_FIELDS) && !address.startsWith("tuning/")) nodes.push([address, node]);
    for (const name of Object.keys(node.CONTENTS || {})) visit(node.CONTENTS[name]);
  };
  if (root) for (const name of Object.keys(root.CONTENTS || {})) visit(root.CONTENTS[name]);
  const place = (node) => ("EDITOR_PLACE" in node ? node.EDITOR_PLACE : Infinity);
  const name = ([address, node]) => node.NAME || address;
  nodes.sort((a, b) => (a[1].GROUP_PLACE ?? Infinity) - (b[1].GROUP_PLACE ?? Infinity) || place(a[1]) - place(b[1])
    || name(a).localeCompare(name(b)));
  let group = null;
  for (const [address, node] of nodes) {
    if (node.GROUP && node.GROUP !== group) {
      group = node.GROUP;
      const heading = document.createElement("div");
      heading.className = "control-group";
      heading.textContent = group;
      container.appendChild(heading);
    }
    container.appendChild(makeControl(address, node));
  }
}

// A slider's position (0...1000 on a logarithmic scale, else the value itself) and back.
function sliderScale(node, range) {
  const step = node.STEP;
  const whole = (v) => (step ? Math.round(v / step) * step : v);
  if (!node.LOGARITHMIC) return { min: range.MIN, max: range.MAX, step: step || (range.MAX - range.MIN) / 1000, to: (v) => v, from: (p) => whole(p) };
  // A logarithmic range needs a low end above 0 (1 of the unit, at most a thousandth of the top).
  const lo = range.MIN > 0 ? range.MIN : Math.min(1, range.MAX / 1000), hi = range.MAX;
  return {
    min: 0, max: 1000, step: 1,
    to: (v) => 1000 * Math.log(Math.max(v, lo) / lo) / Math.log(hi / lo),
    from: (p) => Math.min(hi, Math.max(range.MIN, whole(lo * Math.pow(hi / lo, p / 1000)))),
  };
}

function makeControl(address, node) {
  const row = document.createElement("div");
  row.className = "control";
  row.title = node.DESCRIPTION || "";
  const label = document.createElement("label");
  const unit = node.UNIT && ({ "frequency.hz": "Hz", "time.second": "s" }[node.UNIT[0]] || node.UNIT[0].split(".").pop());
  label.textContent = (node.NAME || address) + (unit ? " (" + unit + ")" : "");
  row.appendChild(label);
  const range = (node.RANGE && node.RANGE[0]) || {};
  let update;
  const id = "control-" + address.replace(/\W/g, "-");
  label.htmlFor = id;
  if (node.TYPE === "s" && range.VALS) {
    const select = document.createElement("select");
    select.id = id;
    for (const v of range.VALS) { const o = document.createElement("option"); o.textContent = v; select.appendChild(o); }
    select.onchange = () => edit(address, [select.value]);
    update = (v) => { if (document.activeElement !== select) select.value = v; };
    row.appendChild(select);
  } else if (node.TYPE === "T") {
    const box = document.createElement("input");
    box.type = "checkbox"; box.id = id;
    box.onchange = () => edit(address, [box.checked]);
    update = (v) => { box.checked = !!v; };
    row.appendChild(box);
  } else if (node.TYPE === "f" || node.TYPE === "i") {
    const pair = document.createElement("div");
    pair.className = "pair";
    const number = document.createElement("input");
    number.type = "number"; number.id = id; number.step = node.STEP ? String(node.STEP) : "any";
    if ("MIN" in range) number.min = range.MIN;
    if ("MAX" in range) number.max = range.MAX;
    // A slider where the range is one a hand can sweep (gains, volumes) or the row's scale
    // is logarithmic (a grid over decades).
    if ("MIN" in range && "MAX" in range && (node.LOGARITHMIC || (node.TYPE === "f" && range.MAX - range.MIN <= 10))) {
      const scale = sliderScale(node, range);
      const slider = document.createElement("input");
      slider.type = "range"; slider.min = scale.min; slider.max = scale.max; slider.step = scale.step;
      // One undo step per slider gesture, however many values it sends.
      slider.onpointerdown = slider.onkeydown = () => remember(address);
      slider.oninput = () => { const v = scale.from(Number(slider.value)); number.value = +v.toPrecision(6); send(address, [v]); };
      pair.appendChild(slider);
      update = (v) => { if (document.activeElement !== slider) slider.value = scale.to(v); if (document.activeElement !== number) number.value = +Number(v).toPrecision(6); };
    } else {
      update = (v) => { if (document.activeElement !== number) number.value = v; };
    }
    number.onchange = () => edit(address, [Number(number.value)]);
    pair.appendChild(number);
    row.appendChild(pair);
  } else {
    const text = document.createElement("input");
    text.id = id;
    text.onchange = () => edit(address, [text.value]);
    update = (v) => { if (document.activeElement !== text) text.value = v; };
    row.appendChild(text);
  }
  editor.controls[address] = update;
  if (node.VALUE) update(node.VALUE[0]);
  return row;
}

// ---------- scope and spectrum (frames pushed by the node, ~30 a second) ----------

function fitCanvas(c) {
  const ratio = window.devicePixelRatio || 1;
  if (c.width !== Math.round(c.clientWidth * ratio)) { c.width = Math.round(c.clientWidth * ratio); c.height = Math.round(c.clientHeight * ratio); }
  const g = c.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, c.clientWidth, c.clientHeight);
  return [g, c.clientWidth, c.clientHeight];
}

function drawMonitors(scope) {
  editor.lastScope = scope;
  const style = getComputedStyle(document.documentElement);
  let [g, w, h] = fitCanvas($("scope"));
  const peak = Math.max(params()["amplitude"] || 0, ...scope.wave.map(Math.abs), 1e-6);
  g.strokeStyle = style.getPropertyValue("--grid"); g.beginPath(); g.moveTo(0, h / 2); g.lineTo(w, h / 2); g.stroke();
  g.strokeStyle = style.getPropertyValue("--accent"); g.lineWidth = 1.5; g.beginPath();
  scope.wave.forEach((v, i) => { const x = i / (scope.wave.length - 1) * w, y = h / 2 - v / peak * (h / 2 - 4); i ? g.lineTo(x, y) : g.moveTo(x, y); });
  g.stroke();
  g.fillStyle = style.getPropertyValue("--dim"); g.font = "10px system-ui, sans-serif";
  g.fillText(`${(scope.seconds * 1000).toFixed(1)} ms`, 4, h - 4);
  [g, w, h] = fitCanvas($("spectrum"));
  const floor = -100;
  g.fillStyle = style.getPropertyValue("--point");
  const n = scope.spectrum.length;
  scope.spectrum.forEach((db, i) => {
    const height = Math.max(0, (db - floor) / -floor) * (h - 12);
    g.fillRect(i / n * w, h - 12 - height, Math.max(1, w / n - 0.5), height);
  });
  g.fillStyle = style.getPropertyValue("--dim");
  for (const f of [100, 1000, 10000]) {
    if (f < scope.low || f > scope.high) continue;
    const x = Math.log(f / scope.low) / Math.log(scope.high / scope.low) * w;
    g.fillText(formatNumber(f) + " Hz", x + 2, h - 2);
  }
}

$("monitor").onchange = () => {
  if (editor.socket && editor.socket.readyState === WebSocket.OPEN)
    editor.socket.send(JSON.stringify($("monitor").checked ? { watch: "scope" } : { unwatch: "scope" }));
};

// ---------- header: fields, play, export ----------

$("duration").onchange = () => edit("duration", [Number($("duration").value)]);
$("min-frequency").onchange = $("max-frequency").onchange = () =>
  edit("frequency/range", [Number($("min-frequency").value), Number($("max-frequency").value)]);
$("log-scale").onchange = $("snap-time").onchange = () => draw();
$("play").onclick = () => send("play", []);
$("stop").onclick = () => send("stop", []);
function updateExportLink() {
  $("export").href = withToken(`/export?cycles=${encodeURIComponent($("export-cycles").value)}&format=${$("export-format").value}`);
}
$("export-cycles").oninput = $("export-format").onchange = updateExportLink;

async function start() {
  updateUndoButtons();
  updateExportLink();
  const info = await (await fetch(withToken("/?HOST_INFO"))).json();
  document.title = "ToneShaper · " + info.NAME;
  const namespace = await (await fetch(withToken("/"))).json();
  // The OSC prefix: the chain of plain containers above the addresses ("/toneshaper").
  let top = namespace;
  editor.prefix = "";
  for (;;) {
    const names = Object.keys(top.CONTENTS || {});
    if (names.length !== 1 || top.CONTENTS[names[0]].ACCESS || !top.CONTENTS[names[0]].CONTENTS) break;
    top = top.CONTENTS[names[0]];
    editor.prefix = top.FULL_PATH;
  }
  buildControls(top);
  await loadLibrary();
  connect();
  // The playhead is re-synchronised with the frames the node has played now and then.
  setInterval(() => { if (editor.socket && editor.socket.readyState === WebSocket.OPEN) editor.socket.send(JSON.stringify({ query: "stats", id: 0 })); }, 2000);
  requestAnimationFrame(frame);
}
// Once every script of the page has run (they share these names).
document.addEventListener("DOMContentLoaded", () => start().catch((error) => say("could not start the editor: " + error)));
