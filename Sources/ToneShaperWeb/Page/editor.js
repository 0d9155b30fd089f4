// ToneShaper's curve editor. The node holds the state: every edit is sent over the
// WebSocket at once and the page shows what the node reports back, so edits from any
// other controller (OSC, MIDI, another page) appear here too. The controls beside the
// curve are generated from the node's OSCQuery namespace, so a new parameter needs no
// change here.
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
  selected: -1,
  gesture: null,            // the pointer gesture in progress
  undo: [], redo: [],
  socket: null, nextID: 1,
  pendingPoints: null,      // points to send at the next animation frame
  controls: {},             // address -> update(value)
  clock: null,              // playhead estimate: { at: ms, position: s }
};
window.toneshaperEditor = editor;   // for tests and the console

// ---------- geometry ----------

const canvas = $("curve");
const ctx = canvas.getContext("2d");
const margin = { left: 64, right: 16, top: 12, bottom: 32 };

function params() { return (editor.state && editor.state.parameters) || {}; }
function duration() { return params()["duration"] || 1; }
function fMin() { return params()["frequency/min"] ?? 0; }
function fMax() { return params()["frequency/max"] ?? 1000; }
function logScale() { return $("log-scale").checked && fMin() > 0; }

function plotWidth() { return canvas.clientWidth - margin.left - margin.right; }
function plotHeight() { return canvas.clientHeight - margin.top - margin.bottom; }

function frequencyToY(f) {
  const lo = fMin(), hi = fMax();
  let u;
  if (hi <= lo) u = 0.5;
  else if (logScale()) u = Math.log(Math.max(f, lo) / lo) / Math.log(hi / lo);
  else u = (f - lo) / (hi - lo);
  return margin.top + (1 - u) * plotHeight();
}
function yToFrequency(y) {
  const lo = fMin(), hi = fMax();
  const u = Math.min(1, Math.max(0, 1 - (y - margin.top) / plotHeight()));
  return logScale() ? lo * Math.pow(hi / lo, u) : lo + u * (hi - lo);
}
function timeToX(t) { return margin.left + (t / duration()) * plotWidth(); }
function xToTime(x) { return Math.min(1, Math.max(0, (x - margin.left) / plotWidth())) * duration(); }
editor.toPixel = (t, f) => ({ x: timeToX(t), y: frequencyToY(f) });

function snap(t, f) {
  const steps = Number($("snap-time").value);
  if (steps > 0) t = Math.round(t / duration() * steps) / steps * duration();
  if ($("snap-pitch").checked && f > 0) {
    const n = Math.round(12 * Math.log2(f / 440));
    const g = 440 * Math.pow(2, n / 12);
    if (g >= fMin() && g <= fMax()) f = g;
  }
  return [Math.min(duration(), Math.max(0, t)), Math.min(fMax(), Math.max(fMin(), f))];
}

// ---------- drawing ----------

function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}
function formatNumber(v) { return Math.abs(v) >= 1000 ? (v / 1000).toFixed(v % 1000 ? 1 : 0) + "k" : String(+v.toFixed(3)); }

function frequencyTicks() {
  const lo = fMin(), hi = fMax();
  if (!logScale()) {
    const step = niceStep(hi - lo, plotHeight() / 40);
    const ticks = [];
    for (let f = Math.ceil(lo / step) * step; f <= hi + 1e-9; f += step) ticks.push(f);
    return ticks;
  }
  const ticks = [];
  for (let d = Math.pow(10, Math.floor(Math.log10(lo))); d <= hi; d *= 10)
    for (const m of [1, 2, 5]) if (d * m >= lo && d * m <= hi) ticks.push(d * m);
  return ticks;
}

function draw() {
  const ratio = window.devicePixelRatio || 1;
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) {
    canvas.width = Math.round(w * ratio); canvas.height = Math.round(h * ratio);
  }
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, w, h);
  if (!editor.state) return;
  const style = getComputedStyle(document.documentElement);
  ctx.font = "11px system-ui, sans-serif";
  ctx.lineWidth = 1;
  // Grid and axes: seconds across, hertz up.
  ctx.strokeStyle = style.getPropertyValue("--grid"); ctx.fillStyle = style.getPropertyValue("--dim");
  ctx.textAlign = "right"; ctx.textBaseline = "middle";
  for (const f of frequencyTicks()) {
    const y = frequencyToY(f);
    ctx.beginPath(); ctx.moveTo(margin.left, y); ctx.lineTo(w - margin.right, y); ctx.stroke();
    ctx.fillText(formatNumber(f) + " Hz", margin.left - 6, y);
  }
  ctx.textAlign = "center"; ctx.textBaseline = "top";
  const tStep = niceStep(duration(), plotWidth() / 70);
  for (let t = 0; t <= duration() + 1e-9; t += tStep) {
    const x = timeToX(t);
    ctx.beginPath(); ctx.moveTo(x, margin.top); ctx.lineTo(x, h - margin.bottom); ctx.stroke();
    ctx.fillText(formatNumber(t) + " s", x, h - margin.bottom + 6);
  }
  const steps = Number($("snap-time").value);
  if (steps > 0) {
    ctx.strokeStyle = "rgba(79,195,247,0.12)";
    for (let i = 1; i < steps; i++) { const x = timeToX(i * duration() / steps); ctx.beginPath(); ctx.moveTo(x, margin.top); ctx.lineTo(x, h - margin.bottom); ctx.stroke(); }
  }
  // The curve, held flat before the first point and after the last (as the node plays it).
  const pts = editor.points;
  ctx.strokeStyle = style.getPropertyValue("--accent"); ctx.lineWidth = 2;
  ctx.beginPath();
  if (pts.length) {
    ctx.moveTo(timeToX(0), frequencyToY(pts[0][1]));
    for (const [t, f] of pts) ctx.lineTo(timeToX(t), frequencyToY(f));
    ctx.lineTo(timeToX(duration()), frequencyToY(pts[pts.length - 1][1]));
  }
  ctx.stroke();
  if (editor.gesture && editor.gesture.kind === "stroke") {
    ctx.strokeStyle = "rgba(255,255,255,0.5)"; ctx.lineWidth = 1; ctx.beginPath();
    editor.gesture.trail.forEach(([x, y], i) => i ? ctx.lineTo(x, y) : ctx.moveTo(x, y));
    ctx.stroke();
  }
  // Points (not when there are so many that they would hide the curve).
  if (pts.length <= 400) {
    pts.forEach(([t, f], i) => {
      ctx.fillStyle = i === editor.selected ? "#fff" : style.getPropertyValue("--point");
      ctx.beginPath(); ctx.arc(timeToX(t), frequencyToY(f), i === editor.selected ? 5 : 4, 0, 2 * Math.PI); ctx.fill();
    });
  }
  // Playhead.
  const position = playheadPosition();
  if (position !== null) {
    const x = timeToX(position);
    ctx.strokeStyle = "rgba(255,255,255,0.6)"; ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(x, margin.top); ctx.lineTo(x, h - margin.bottom); ctx.stroke();
    const f = curveAt(position);
    if (f !== null) { ctx.fillStyle = "#fff"; ctx.beginPath(); ctx.arc(x, frequencyToY(f), 3, 0, 2 * Math.PI); ctx.fill(); }
  }
}

function curveAt(t) {
  const pts = editor.points;
  if (!pts.length) return null;
  if (t <= pts[0][0]) return pts[0][1];
  for (let i = 1; i < pts.length; i++) {
    if (t <= pts[i][0]) {
      const [t0, f0] = pts[i - 1], [t1, f1] = pts[i];
      return t1 > t0 ? f0 + (f1 - f0) * (t - t0) / (t1 - t0) : f1;
    }
  }
  return pts[pts.length - 1][1];
}

// The playhead follows the frames the node has played (from /stats), restarted when it
// starts playing; between reports it runs on the page's clock.
function playheadPosition() {
  if (!editor.state || !editor.state.playing || !editor.clock) return null;
  const elapsed = editor.clock.position + (performance.now() - editor.clock.at) / 1000;
  return ((elapsed % duration()) + duration()) % duration();
}

function frame() { draw(); requestAnimationFrame(frame); }

// ---------- editing ----------

function hitPoint(x, y) {
  let best = -1, bestDistance = 9;
  editor.points.forEach(([t, f], i) => {
    const d = Math.hypot(timeToX(t) - x, frequencyToY(f) - y);
    if (d < bestDistance) { best = i; bestDistance = d; }
  });
  return best;
}

// Undo history: each entry is an address and the arguments that put it back as it was
// (the curve's points, the range, the duration, any generated control's value), so undo
// and redo are edits sent to the node like any other.
function currentArguments(address) {
  if (address === "points") return editor.points.flat();
  if (address === "frequency/range") return [fMin(), fMax()];
  return [params()[address]];
}

function pushUndo(entry) {
  editor.undo.push(entry);
  if (editor.undo.length > 200) editor.undo.shift();
  editor.redo = [];
  updateUndoButtons();
}

function remember(address = "points") { pushUndo({ address, args: currentArguments(address) }); }

function applyHistory(from, to) {
  const entry = from.pop();
  if (!entry) return;
  to.push({ address: entry.address, args: currentArguments(entry.address) });
  updateUndoButtons();
  if (entry.address === "points") {
    editor.points = [];
    for (let i = 0; i + 1 < entry.args.length; i += 2) editor.points.push([entry.args[i], entry.args[i + 1]]);
    sendPoints();
  } else {
    send(entry.address, entry.args);
  }
}

// A change made with a field or a control, remembered first.
function edit(address, args) {
  remember(address);
  send(address, args);
}

function updateUndoButtons() { $("undo").disabled = !editor.undo.length; $("redo").disabled = !editor.redo.length; }

// Sends the page's points at the next animation frame: a drag sends at most one curve per
// frame, and the newest always goes.
function sendPoints() {
  editor.pendingPoints = editor.points.map((p) => p.slice());
  if (editor.pointsScheduled) return;
  editor.pointsScheduled = true;
  requestAnimationFrame(() => {
    editor.pointsScheduled = false;
    const pts = editor.pendingPoints;
    editor.pendingPoints = null;
    if (pts) send("points", pts.flat());
  });
}

function localPoint(event) {
  const r = canvas.getBoundingClientRect();
  return [event.clientX - r.left, event.clientY - r.top];
}

canvas.addEventListener("pointerdown", (event) => {
  if (!editor.state || event.button !== 0) return;
  canvas.setPointerCapture(event.pointerId);
  canvas.focus();
  const [x, y] = localPoint(event);
  const hit = hitPoint(x, y);
  editor.selected = hit;
  editor.gesture = hit >= 0
    ? { kind: "drag", index: hit, before: editor.points.map((p) => p.slice()), moved: false }
    : { kind: "pending", start: [x, y], trail: [[x, y]] };
});

canvas.addEventListener("pointermove", (event) => {
  const [x, y] = localPoint(event);
  const g = editor.gesture;
  if (!g) { $("readout").textContent = editor.state ? `${xToTime(x).toFixed(3)} s, ${yToFrequency(y).toFixed(1)} Hz` : ""; return; }
  if (g.kind === "drag") {
    if (!g.moved) { pushUndo({ address: "points", args: g.before.flat() }); g.moved = true; }
    const pts = editor.points;
    let [t, f] = snap(xToTime(x), yToFrequency(y));
    // A point stays between its neighbours in time.
    const lo = g.index > 0 ? pts[g.index - 1][0] : 0;
    const hi = g.index < pts.length - 1 ? pts[g.index + 1][0] : duration();
    pts[g.index] = [Math.min(hi, Math.max(lo, t)), f];
    $("readout").textContent = `${pts[g.index][0].toFixed(3)} s, ${f.toFixed(1)} Hz`;
    sendPoints();
  } else {
    g.trail.push([x, y]);
    if (g.kind === "pending" && Math.hypot(x - g.start[0], y - g.start[1]) > 6) {
      g.kind = "stroke"; g.before = editor.points.map((p) => p.slice());
      pushUndo({ address: "points", args: g.before.flat() });
    }
    if (g.kind === "stroke") { editor.points = mergeStroke(g.before, g.trail); sendPoints(); }
  }
});

canvas.addEventListener("pointerup", (event) => {
  const g = editor.gesture;
  editor.gesture = null;
  if (!g) return;
  if (g.kind === "pending") {
    // A click on empty space adds a point there.
    const [t, f] = snap(xToTime(g.start[0]), yToFrequency(g.start[1]));
    remember();
    let i = editor.points.findIndex((p) => p[0] > t);
    if (i < 0) i = editor.points.length;
    editor.points.splice(i, 0, [t, f]);
    editor.selected = i;
    sendPoints();
  } else if (g.kind === "stroke") {
    editor.points = mergeStroke(g.before, g.trail);
    sendPoints();
  }
});
canvas.addEventListener("pointercancel", () => { editor.gesture = null; });

canvas.addEventListener("dblclick", (event) => {
  const [x, y] = localPoint(event);
  const hit = hitPoint(x, y);
  if (hit >= 0) removePoint(hit);
});

canvas.addEventListener("keydown", (event) => {
  if ((event.key === "Delete" || event.key === "Backspace") && editor.selected >= 0) {
    removePoint(editor.selected); event.preventDefault();
  }
});

function removePoint(index) {
  // The click that began the double-click may have added nothing (it hit this point), so
  // only the removal is remembered.
  remember();
  editor.points.splice(index, 1);
  editor.selected = -1;
  sendPoints();
}

// A freehand stroke replaces the points in the time span it covers with the stroke,
// thinned (Ramer-Douglas-Peucker, 1.5 px) so a second of drawing is a few dozen points.
function mergeStroke(before, trail) {
  const samples = trail.map(([x, y]) => snap(xToTime(x), yToFrequency(y)));
  // Time runs one way along a curve: a stroke drawn right to left is read left to right,
  // and a sample that goes back in time is dropped.
  if (samples.length > 1 && samples[samples.length - 1][0] < samples[0][0]) samples.reverse();
  const monotone = [];
  for (const s of samples) if (!monotone.length || s[0] > monotone[monotone.length - 1][0]) monotone.push(s);
  const thinned = thin(monotone, 1.5);
  if (!thinned.length) return before;
  const t0 = thinned[0][0], t1 = thinned[thinned.length - 1][0];
  return before.filter((p) => p[0] < t0).concat(thinned, before.filter((p) => p[0] > t1));
}

function thin(points, tolerance) {
  if (points.length < 3) return points.slice();
  const px = points.map(([t, f]) => [timeToX(t), frequencyToY(f)]);
  const keep = new Array(points.length).fill(false);
  keep[0] = keep[points.length - 1] = true;
  const stack = [[0, points.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop();
    let worst = -1, worstDistance = tolerance;
    const [ax, ay] = px[a], [bx, by] = px[b];
    const length = Math.hypot(bx - ax, by - ay) || 1;
    for (let i = a + 1; i < b; i++) {
      const d = Math.abs((bx - ax) * (ay - px[i][1]) - (ax - px[i][0]) * (by - ay)) / length;
      if (d > worstDistance) { worst = i; worstDistance = d; }
    }
    if (worst >= 0) { keep[worst] = true; stack.push([a, worst], [worst, b]); }
  }
  return points.filter((_, i) => keep[i]);
}

$("undo").onclick = () => applyHistory(editor.undo, editor.redo);
$("redo").onclick = () => applyHistory(editor.redo, editor.undo);
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
    (event.shiftKey ? $("redo") : $("undo")).onclick(); event.preventDefault();
  } else if (event.key === " ") {
    send(editor.state && editor.state.playing ? "stop" : "play", []); event.preventDefault();
  }
});

// ---------- the node ----------

function send(address, args) {
  if (!editor.socket || editor.socket.readyState !== WebSocket.OPEN) { say("not connected to the node"); return; }
  editor.socket.send(JSON.stringify({ address, args, id: editor.nextID++ }));
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
    if (message.hide) hide(message.hide);
    else if (message.state) adopt(message.state);
    else if (message.stats) syncClock(message.stats);
    else if (message.scope) drawMonitors(message.scope);
    else if (message.error) say(message.error);
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

function adopt(state) {
  const was = editor.state;
  editor.state = state;
  if (state.playing && (!was || !was.playing) && was) editor.clock = { at: performance.now(), position: 0, fromPlay: true };
  // The node's points, unless the user is in the middle of a gesture (they will be sent).
  if (!editor.gesture && !editor.pendingPoints) editor.points = state.points.map((p) => p.slice());
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

// ---------- header: fields, play, library, export ----------

$("duration").onchange = () => edit("duration", [Number($("duration").value)]);
$("min-frequency").onchange = $("max-frequency").onchange = () =>
  edit("frequency/range", [Number($("min-frequency").value), Number($("max-frequency").value)]);
$("log-scale").onchange = $("snap-time").onchange = () => draw();
$("play").onclick = () => send("play", []);
$("stop").onclick = () => send("stop", []);
$("load").onclick = () => { if ($("library").value) { editor.undo = []; editor.redo = []; updateUndoButtons(); send("load", [$("library").value]); } };
$("save").onclick = () => {
  const name = $("save-name").value.trim();
  if (!name) { say("give the document a name to save it under"); return; }
  send("save", [name]);
  setTimeout(loadLibrary, 300);
};
function updateExportLink() {
  $("export").href = withToken(`/export?cycles=${encodeURIComponent($("export-cycles").value)}&format=${$("export-format").value}`);
}
$("export-cycles").oninput = $("export-format").onchange = updateExportLink;

async function loadLibrary() {
  const response = await fetch(withToken("/library"));
  const library = await response.json();
  const select = $("library");
  select.textContent = "";
  for (const [title, list] of [["Your library", library.user], ["Built-in", library.builtIn]]) {
    if (!list.length) continue;
    const group = document.createElement("optgroup");
    group.label = title;
    for (const entry of list) {
      const o = document.createElement("option");
      o.value = o.textContent = entry.name;
      if (entry.description) o.title = entry.description;
      group.appendChild(o);
    }
    select.appendChild(group);
  }
}

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
start().catch((error) => say("could not start the editor: " + error));
