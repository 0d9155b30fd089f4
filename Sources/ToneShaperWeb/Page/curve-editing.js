// Editing the curve with the pointer and the keyboard: points, curvature handles,
// freehand drawing, selection, undo. What a gesture changes is sent to the node at once
// (at most once an animation frame); the node's reply is what the page then shows.
"use strict";

editor.curvatures = [];        // one a segment (the points less one), 0 straight
editor.selection = new Set();  // indices of the selected points
editor.tool = "select";        // "select": drag on empty space selects; "draw": it draws

/// The points with the curvature of the segment each begins: [t, f, c]. Operations that
/// add, remove or reorder points work on these, so a segment keeps its bend.
function bentPoints() { return editor.points.map(([t, f], i) => [t, f, curvatureOf(i)]); }
function setBentPoints(list) {
  editor.points = list.map(([t, f]) => [t, f]);
  editor.curvatures = list.slice(0, -1).map((p) => p[2] || 0);
}

/// The arguments of /points for the page's curve: t0 f0 t1 f1 ..., then "curvatures" and
/// one number a segment (always sent, so a straightened segment is straight at the node).
function pointArguments(points = editor.points, curvatures = editor.curvatures) {
  const args = points.flat();
  if (points.length > 1) args.push("curvatures", ...points.slice(1).map((_, k) => curvatures[k] || 0));
  return args;
}
function readPointArguments(args) {
  const marker = args.indexOf("curvatures");
  const flat = marker < 0 ? args : args.slice(0, marker);
  const points = [];
  for (let i = 0; i + 1 < flat.length; i += 2) points.push([flat[i], flat[i + 1]]);
  return { points, curvatures: marker < 0 ? [] : args.slice(marker + 1) };
}

// ---------- undo ----------

// Undo history: each entry is an address and the arguments that put it back as it was
// (the curve's points and curvatures, the range, the duration, any generated control's
// value), so undo and redo are edits sent to the node like any other.
function currentArguments(address) {
  if (address === "points") return pointArguments();
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
    const { points, curvatures } = readPointArguments(entry.args);
    editor.points = points; editor.curvatures = curvatures;
    editor.selection = new Set([...editor.selection].filter((i) => i < points.length));
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

// Sends the page's curve at the next animation frame: a drag sends at most one curve per
// frame, and the newest always goes.
function sendPoints() {
  editor.pendingPoints = pointArguments();
  if (editor.pointsScheduled) return;
  editor.pointsScheduled = true;
  requestAnimationFrame(() => {
    editor.pointsScheduled = false;
    const args = editor.pendingPoints;
    editor.pendingPoints = null;
    if (args) send("points", args);
  });
}

/// A whole edit of the curve: remembered, applied to the page's curve, sent.
function changeCurve(list, selection) {
  remember();
  setBentPoints(list);
  if (selection) editor.selection = new Set(selection);
  sendPoints();
}

// ---------- edits by the node's editing model ----------

// Moving, stretching, flipping, deleting, bending, typed entry, copy and paste are computed
// by the node with the editing model the plugin's window uses too (CurveEdits.swift), so
// both editors give the same curve for the same gesture. The page sends the curve it shows
// (or the one a gesture started from) with the selected indices, and shows the answer.
editor.liveSequence = 0;

function editMessage(operation, fields, before = bentPoints(), selection = editor.selection) {
  return {
    edit: operation, points: before.flatMap(([t, f]) => [t, f]), curvatures: before.slice(0, -1).map((p) => p[2] || 0),
    selection: [...selection].sort((a, b) => a - b), ...fields,
  };
}

function showEdit(reply) {
  editor.points = reply.points;
  editor.curvatures = reply.curvatures;
  editor.selection = new Set(reply.selection);
}

/// One edit (a button, a key, the entry form): one undo step once the node has taken it.
async function editOnNode(operation, fields = {}, selection = editor.selection) {
  const undo = { address: "points", args: currentArguments("points") };
  const reply = await request(editMessage(operation, fields, bentPoints(), selection));
  if (reply.ok && reply.points) { pushUndo(undo); showEdit(reply); }
  return reply;
}

/// An edit a gesture repeats as the pointer moves, from the curve the gesture began with:
/// the newest goes at the next animation frame, and an answer overtaken by a newer request
/// is not shown.
function editLive(g, operation, fields) {
  editor.liveEdit = editMessage(operation, fields, g.before, g.selection);
  if (editor.liveScheduled) return;
  editor.liveScheduled = true;
  requestAnimationFrame(async () => {
    editor.liveScheduled = false;
    const message = editor.liveEdit;
    editor.liveEdit = null;
    if (!message) return;
    const sequence = ++editor.liveSequence;
    const reply = await request(message);
    if (reply.ok && reply.points && sequence === editor.liveSequence) showEdit(reply);
  });
}

// ---------- hit testing ----------

function localPoint(event) {
  const r = canvas.getBoundingClientRect();
  return [event.clientX - r.left, event.clientY - r.top];
}

function hitPoint(x, y) {
  let best = -1, bestDistance = 9;
  editor.points.forEach(([t, f], i) => {
    const d = Math.hypot(timeToX(t) - x, frequencyToY(f) - y);
    if (d < bestDistance) { best = i; bestDistance = d; }
  });
  return best;
}

function hitHandle(x, y) {
  if (editor.points.length > 400) return -1;
  let best = -1, bestDistance = 7;
  for (const k of visibleHandles()) {
    const [t, f] = handleOf(k);
    const d = Math.hypot(timeToX(t) - x, frequencyToY(f) - y);
    if (d < bestDistance) { best = k; bestDistance = d; }
  }
  return best;
}

/// The selection frame's handle under (x, y): "left", "right", "top" or "bottom".
function hitFrameHandle(x, y) {
  const frame = selectionFrame();
  if (!frame) return null;
  const hit = frame.handles.find(([, hx, hy]) => Math.abs(hx - x) <= 6 && Math.abs(hy - y) <= 6);
  return hit ? hit[0] : null;
}

// ---------- pointer gestures ----------

canvas.addEventListener("pointerdown", (event) => {
  if (!editor.state) return;
  const [x, y] = localPoint(event);
  canvas.focus();
  if (event.button === 1) {   // the middle button pans
    canvas.setPointerCapture(event.pointerId);
    editor.gesture = { kind: "pan", last: [x, y] };
    event.preventDefault();
    return;
  }
  if (event.button !== 0) return;
  canvas.setPointerCapture(event.pointerId);
  const hit = hitPoint(x, y);
  if (hit >= 0) {
    if (event.shiftKey) {
      // Shift-click adds a point to the selection or takes it out.
      if (editor.selection.has(hit)) editor.selection.delete(hit); else editor.selection.add(hit);
      editor.gesture = null;
      return;
    }
    if (!editor.selection.has(hit)) editor.selection = new Set([hit]);
    editor.gesture = { kind: "drag", index: hit, start: [x, y], before: bentPoints(), selection: new Set(editor.selection), moved: false };
    return;
  }
  const edge = hitFrameHandle(x, y);
  if (edge) {
    editor.gesture = { kind: "scale", edge, start: [x, y], before: bentPoints(), selection: new Set(editor.selection), moved: false };
    return;
  }
  const handle = hitHandle(x, y);
  if (handle >= 0) {
    if (event.altKey) {   // Alt on a handle straightens its segment
      if (curvatureOf(handle)) { const list = bentPoints(); list[handle][2] = 0; changeCurve(list); }
      editor.gesture = null;
      return;
    }
    editor.gesture = { kind: "bend", segment: handle, before: bentPoints(), selection: new Set(editor.selection), startY: y, moved: false };
    return;
  }
  if (editor.tool === "draw") editor.gesture = { kind: "pending", start: [x, y], trail: [[x, y]] };
  else editor.gesture = { kind: "band", start: [x, y], end: [x, y], add: event.shiftKey, moved: false };
});

canvas.addEventListener("pointermove", (event) => {
  const [x, y] = localPoint(event);
  const g = editor.gesture;
  if (!g) { $("readout").textContent = editor.state ? readout(xToTime(x), yToFrequency(y)) : ""; return; }
  if (g.kind === "pan") { pan(x - g.last[0], y - g.last[1]); g.last = [x, y]; }
  else if (g.kind === "drag") dragPoints(g, x, y);
  else if (g.kind === "bend") bend(g, x, y);
  else if (g.kind === "scale") scaleSelection(g, x, y);
  else if (g.kind === "band") { g.end = [x, y]; g.moved = g.moved || Math.hypot(x - g.start[0], y - g.start[1]) > 4; }
  else {
    g.trail.push([x, y]);
    if (g.kind === "pending" && Math.hypot(x - g.start[0], y - g.start[1]) > 6) {
      g.kind = "stroke"; g.before = bentPoints();
      pushUndo({ address: "points", args: currentArguments("points") });
    }
    if (g.kind === "stroke") { setBentPoints(mergeStroke(g.before, g.trail)); sendPoints(); }
  }
});

canvas.addEventListener("pointerup", (event) => {
  const g = editor.gesture;
  editor.gesture = null;
  if (!g) return;
  if (g.kind === "pending" || (g.kind === "band" && !g.moved)) {
    // A click on empty space adds a point there, selected.
    const [t, f] = snap(xToTime(g.start[0]), yToFrequency(g.start[1]));
    const list = bentPoints();
    let i = list.findIndex((p) => p[0] > t);
    if (i < 0) i = list.length;
    list.splice(i, 0, [t, f, 0]);
    changeCurve(list, [i]);
  } else if (g.kind === "band") {
    const [x0, y0] = g.start, [x1, y1] = g.end;
    const inside = (i) => {
      const [t, f] = editor.points[i], px = timeToX(t), py = frequencyToY(f);
      return px >= Math.min(x0, x1) && px <= Math.max(x0, x1) && py >= Math.min(y0, y1) && py <= Math.max(y0, y1);
    };
    if (!g.add) editor.selection.clear();
    editor.points.forEach((_, i) => { if (inside(i)) editor.selection.add(i); });
  } else if (g.kind === "stroke") {
    setBentPoints(mergeStroke(g.before, g.trail));
    sendPoints();
  }
});
canvas.addEventListener("pointercancel", () => { editor.gesture = null; });
canvas.addEventListener("contextmenu", (event) => {
  // A right-click on a point removes it (Vital's way); elsewhere the menu is the browser's.
  const [x, y] = localPoint(event);
  const hit = hitPoint(x, y);
  if (hit < 0) return;
  event.preventDefault();
  removePoints(new Set([hit]));
});

function readout(t, f) {
  const midi = 69 + 12 * Math.log2(f / 440);
  const note = f > 0 ? ` (${noteName(Math.round(midi))}${formatCents(100 * (midi - Math.round(midi)))})` : "";
  return `${t.toFixed(3)} s, ${f.toFixed(1)} Hz${note}`;
}
function formatCents(c) { const r = Math.round(c); return r ? (r > 0 ? "+" : "") + r : ""; }

/// Moves the selected points with the one under the pointer: that one snaps, the others
/// move by as many seconds and semitones (the editing model's move, as far as the cycle and
/// the range let the whole selection go).
function dragPoints(g, x, y) {
  const [t0, f0] = g.before[g.index];
  const [t, f] = snap(xToTime(x), yToFrequency(y));
  if (!g.moved) {
    if (Math.hypot(x - g.start[0], y - g.start[1]) < 2) return;
    pushUndo({ address: "points", args: currentArguments("points") });   // still the curve as it was
    g.moved = true;
  }
  editLive(g, "move", { seconds: t - t0, semitones: f0 > 0 && f > 0 ? 12 * Math.log2(f / f0) : 0 });
  $("readout").textContent = readout(t, f);
}

/// Stretches the selection as a frame edge is dragged, about the selection's centre: the
/// edge follows the pointer (left and right in time, top and bottom in pitch); past the
/// centre it flips.
function scaleSelection(g, x, y) {
  const pts = [...g.selection].map((i) => g.before[i]);
  const time = g.edge === "left" || g.edge === "right";
  const values = pts.map(([t, f]) => (time ? t : Math.log2(f)));
  const lo = Math.min(...values), hi = Math.max(...values), centre = (lo + hi) / 2;
  const edge = g.edge === "right" || g.edge === "top" ? hi : lo;
  // The handle sits a few pixels outside the points: the pointer's offset from the edge
  // when it took the handle stays.
  const place = (px, py) => (time ? xToTime(px) : Math.log2(yToFrequency(py)));
  const at = place(x, y) - (place(...g.start) - edge);
  const factor = (at - centre) / (edge - centre);
  if (!Number.isFinite(factor)) return;
  if (!g.moved) { pushUndo({ address: "points", args: currentArguments("points") }); g.moved = true; }
  editLive(g, "stretch", time ? { timeFactor: factor } : { pitchFactor: factor });
  $("readout").textContent = `× ${factor.toFixed(3)} in ${time ? "time" : "pitch"}`;
}

/// Bends a segment as its handle is dragged up or down (the editing model's
/// CurvatureDrag: 100 px change the curvature by 1, and dragging up raises the middle).
function bend(g, x, y) {
  if (!g.moved) { pushUndo({ address: "points", args: currentArguments("points") }); g.moved = true; }
  editLive(g, "bend", { segment: g.segment, dragUp: g.startY - y });
  $("readout").textContent = `curvature ${curvatureOf(g.segment).toFixed(2)}`;
}

// A freehand stroke replaces the points in the time span it covers with the stroke,
// thinned (Ramer-Douglas-Peucker, 1.5 px) so a second of drawing is a few dozen points.
// The points kept on either side keep their segments' bends; the stroke's are straight.
function mergeStroke(before, trail) {
  const samples = trail.map(([x, y]) => snap(xToTime(x), yToFrequency(y)));
  // Time runs one way along a curve: a stroke drawn right to left is read left to right,
  // and a sample that goes back in time is dropped.
  if (samples.length > 1 && samples[samples.length - 1][0] < samples[0][0]) samples.reverse();
  const monotone = [];
  for (const s of samples) if (!monotone.length || s[0] > monotone[monotone.length - 1][0]) monotone.push(s);
  const thinned = thin(monotone, 1.5).map(([t, f]) => [t, f, 0]);
  if (!thinned.length) return before;
  const t0 = thinned[0][0], t1 = thinned[thinned.length - 1][0];
  const left = before.filter((p) => p[0] < t0).map((p) => p.slice());
  if (left.length) left[left.length - 1][2] = 0;
  return left.concat(thinned, before.filter((p) => p[0] > t1));
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

/// Removes points (the editing model's delete: a curve keeps at least one).
function removePoints(indices) {
  if (indices.size) editOnNode("delete", {}, indices);
}

// ---------- tools and keys ----------

function chooseTool(tool) {
  editor.tool = tool;
  for (const name of ["select", "draw"]) $("tool-" + name).setAttribute("aria-pressed", String(name === tool));
}
$("tool-select").onclick = () => chooseTool("select");
$("tool-draw").onclick = () => chooseTool("draw");
$("fit-view").onclick = () => resetView();

$("undo").onclick = () => applyHistory(editor.undo, editor.redo);
$("redo").onclick = () => applyHistory(editor.redo, editor.undo);
document.addEventListener("keydown", (event) => {
  const target = event.target.tagName;
  if (target === "INPUT" || target === "SELECT" || target === "TEXTAREA") return;
  const command = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (command && key === "z") { (event.shiftKey ? $("redo") : $("undo")).onclick(); event.preventDefault(); }
  else if (command && key === "y") { $("redo").onclick(); event.preventDefault(); }
  else if (command && key === "a") { editor.selection = new Set(editor.points.keys()); event.preventDefault(); }
  else if (event.key === " ") { send(editor.state && editor.state.playing ? "stop" : "play", []); event.preventDefault(); }
  else if (event.target !== canvas || command) return;
  else if (event.key === "Delete" || event.key === "Backspace") { removePoints(editor.selection); event.preventDefault(); }
  else if (event.key === "Enter" && editor.selection.size) { openEntry([...editor.selection].sort((a, b) => a - b)); event.preventDefault(); }
  else if (event.key === "Escape") editor.selection.clear();
  else if (event.key.startsWith("Arrow") && editor.selection.size) { nudge(event.key, event.shiftKey); event.preventDefault(); }
  else if (key === "d") chooseTool(editor.tool === "draw" ? "select" : "draw");
  else if (key === "f") resetView();
});

/// The arrow keys move the selection: left and right by the time snap's step (a hundredth
/// of the visible span without one), up and down by a semitone (Shift: an octave).
function nudge(key, far) {
  const { a0, a1 } = editor.view;
  const step = timeSnapStep() || (a1 - a0) * duration() / 100;
  const seconds = key === "ArrowLeft" ? -step : key === "ArrowRight" ? step : 0;
  const semitones = (key === "ArrowUp" ? 1 : key === "ArrowDown" ? -1 : 0) * (far ? 12 : 1);
  editOnNode("move", { seconds, semitones });
}
