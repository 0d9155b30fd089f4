// The curve's view: where a time and a frequency are drawn (with the zoom and pan of both
// axes), the grid that follows the zoom, snapping, and the picture itself. Curved
// segments are drawn as the engine plays them (SegmentCurvature in the core): progress
// u^(4^c) for c >= 0 and its mirror 1 - (1 - u)^(4^-c) for c < 0, linear in Hz.
"use strict";

const canvas = $("curve");
const ctx = canvas.getContext("2d");
const margin = { left: 64, right: 16, top: 12, bottom: 32 };
const NOTE_NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"];

function params() { return (editor.state && editor.state.parameters) || {}; }
function duration() { return params()["duration"] || 1; }
function fMin() { return params()["frequency/min"] ?? 0; }
function fMax() { return params()["frequency/max"] ?? 1000; }
function logScale() { return $("log-scale").checked && fMin() > 0; }
/// Beats a cycle lasts when the shape follows the tempo (0: it keeps its duration).
function beats() { return params()["beats"] > 0 ? params()["beats"] : 0; }

function plotWidth() { return canvas.clientWidth - margin.left - margin.right; }
function plotHeight() { return canvas.clientHeight - margin.top - margin.bottom; }

// The view: the visible part of each axis as fractions of the whole (time across the
// cycle, height within the frequency range on the chosen scale), so a zoom survives a
// change of the range or of the scale.
editor.view = { a0: 0, a1: 1, v0: 0, v1: 1 };
const MIN_SPAN = 1 / 512;

function heightOf(f) {
  const lo = fMin(), hi = fMax();
  if (hi <= lo) return 0.5;
  return logScale() ? Math.log(Math.max(f, lo) / lo) / Math.log(hi / lo) : (f - lo) / (hi - lo);
}
function frequencyOfHeight(u) {
  const lo = fMin(), hi = fMax();
  return logScale() ? lo * Math.pow(hi / lo, u) : lo + u * (hi - lo);
}
function frequencyToY(f) {
  const { v0, v1 } = editor.view;
  return margin.top + (1 - (heightOf(f) - v0) / (v1 - v0)) * plotHeight();
}
function yToFrequency(y) {
  const { v0, v1 } = editor.view;
  const u = Math.min(1, Math.max(0, v0 + (1 - (y - margin.top) / plotHeight()) * (v1 - v0)));
  return frequencyOfHeight(u);
}
function timeToX(t) {
  const { a0, a1 } = editor.view;
  return margin.left + ((t / duration()) - a0) / (a1 - a0) * plotWidth();
}
function xToTime(x) {
  const { a0, a1 } = editor.view;
  return Math.min(1, Math.max(0, a0 + (x - margin.left) / plotWidth() * (a1 - a0))) * duration();
}
editor.toPixel = (t, f) => ({ x: timeToX(t), y: frequencyToY(f) });

/// Zooms one axis ("time" or "pitch") by `factor` (below 1: closer), keeping the place
/// under the pointer where it is.
function zoom(axis, factor, pixel) {
  const v = editor.view;
  const [lo, hi] = axis === "time" ? ["a0", "a1"] : ["v0", "v1"];
  const span = v[hi] - v[lo];
  const within = axis === "time" ? (pixel - margin.left) / plotWidth() : 1 - (pixel - margin.top) / plotHeight();
  const anchor = v[lo] + Math.min(1, Math.max(0, within)) * span;
  const next = Math.min(1, Math.max(MIN_SPAN, span * factor));
  const start = Math.min(1 - next, Math.max(0, anchor - (anchor - v[lo]) * next / span));
  v[lo] = start; v[hi] = start + next;
}

/// Moves the view by pixels (a middle-button drag), within the whole.
function pan(dx, dy) {
  const v = editor.view;
  const ta = (v.a1 - v.a0) * dx / plotWidth(), tv = (v.v1 - v.v0) * dy / plotHeight();
  const shift = (lo, hi, d) => { const s = Math.min(1 - v[hi], Math.max(-v[lo], d)); v[lo] += s; v[hi] += s; };
  shift("a0", "a1", -ta); shift("v0", "v1", tv);
}

function resetView() { editor.view = { a0: 0, a1: 1, v0: 0, v1: 1 }; }

canvas.addEventListener("wheel", (event) => {
  if (!editor.state || !(event.ctrlKey || event.shiftKey)) return;   // a plain wheel scrolls the page
  event.preventDefault();
  const [x, y] = localPoint(event);
  // Chromium turns a Shift+wheel into a horizontal one.
  const factor = Math.exp((event.deltaY || event.deltaX) * 0.0015);
  if (event.ctrlKey) zoom("time", factor, x);
  if (event.shiftKey) zoom("pitch", factor, y);
}, { passive: false });

// ---------- snapping ----------

/// The snap step in seconds: a fraction of the cycle, or of a beat when the shape
/// follows the tempo (then the menu offers beats).
function timeSnapStep() {
  const steps = Number($("snap-time").value);
  if (!(steps > 0)) return 0;
  return beats() ? duration() / beats() / steps : duration() / steps;
}

/// The frequencies a pitch snaps to: the active tuning's keys when the node reports one,
/// else nothing (semitones of 12-TET, A4 = 440 Hz, are computed).
function tuningGrid() { return (editor.state && editor.state.pitchGrid) || null; }

function snapFrequency(f) {
  if (!$("snap-pitch").checked || !(f > 0)) return f;
  const grid = tuningGrid();
  let g;
  if (grid && grid.length) {
    g = grid.reduce((best, x) => Math.abs(Math.log(x / f)) < Math.abs(Math.log(best / f)) ? x : best, grid[0]);
  } else {
    g = 440 * Math.pow(2, Math.round(12 * Math.log2(f / 440)) / 12);
  }
  return g >= fMin() && g <= fMax() ? g : f;
}

function snap(t, f) {
  const step = timeSnapStep();
  if (step > 0) t = Math.round(t / step) * step;
  return [Math.min(duration(), Math.max(0, t)), Math.min(fMax(), Math.max(fMin(), snapFrequency(f)))];
}

/// The snap menu, in fractions of the cycle or, with tempo sync, of a beat.
function updateSnapMenu() {
  const synced = beats() > 0;
  const menu = $("snap-time");
  if (menu.dataset.synced === String(synced)) return;
  const chosen = menu.value;
  menu.dataset.synced = String(synced);
  menu.textContent = "";
  const options = synced
    ? [["0", "off"], ["1", "1 beat"], ["2", "1/2 beat"], ["4", "1/4 beat"], ["8", "1/8 beat"]]
    : [["0", "off"], ["8", "1/8"], ["16", "1/16"], ["32", "1/32"], ["64", "1/64"]];
  for (const [value, text] of options) {
    const o = document.createElement("option"); o.value = value; o.textContent = text; menu.appendChild(o);
  }
  menu.value = options.some(([v]) => v === chosen) ? chosen : "0";
}

// ---------- the curve as played ----------

/// Progress along a segment of curvature c at u in 0...1 (the engine's SegmentCurvature).
function progress(u, c) {
  if (!c) return u;
  if (c > 0) return Math.pow(u, Math.pow(4, c));
  return 1 - Math.pow(1 - u, Math.pow(4, -c));
}
function curvatureOf(i) { return editor.curvatures[i] || 0; }

function segmentAt(k, u) {
  const [t0, f0] = editor.points[k], [t1, f1] = editor.points[k + 1];
  return [t0 + (t1 - t0) * u, f0 + (f1 - f0) * progress(u, curvatureOf(k))];
}

function curveAt(t) {
  const pts = editor.points;
  if (!pts.length) return null;
  if (t <= pts[0][0]) return pts[0][1];
  for (let i = 1; i < pts.length; i++) {
    if (t <= pts[i][0]) {
      const [t0, f0] = pts[i - 1], [t1, f1] = pts[i];
      return t1 > t0 ? f0 + (f1 - f0) * progress((t - t0) / (t1 - t0), curvatureOf(i - 1)) : f1;
    }
  }
  return pts[pts.length - 1][1];
}

/// Where segment k's curvature handle sits: at the middle of its time, on the curve.
function handleOf(k) { return segmentAt(k, 0.5); }

// ---------- drawing ----------

function formatNumber(v) { return Math.abs(v) >= 1000 ? (v / 1000).toFixed(v % 1000 ? 1 : 0) + "k" : String(+v.toFixed(3)); }
function noteName(midi) { return NOTE_NAMES[((midi % 12) + 12) % 12] + (Math.floor(midi / 12) - 1); }

// The grid comes from the node, by the editing model the plugin's window draws its grid
// with (CurveGrid.swift: seconds or beats across, semitones or the tuning's degrees up),
// asked again only when the view, the canvas or the shape's frame changes.
editor.grid = null;
editor.gridKey = "";

function gridKey() {
  const grid = tuningGrid();
  return JSON.stringify([editor.view, plotWidth(), plotHeight(), duration(), fMin(), fMax(), logScale(), beats(),
    grid ? [grid.length, grid[0]] : null]);
}

function updateGrid() {
  const key = gridKey();
  if (key === editor.gridKey || editor.gridAsked || !editor.socket || editor.socket.readyState !== WebSocket.OPEN) return;
  editor.gridAsked = true;
  const t0 = xToTime(margin.left), t1 = xToTime(margin.left + plotWidth());
  const low = Math.max(1, yToFrequency(margin.top + plotHeight())), high = Math.max(low, yToFrequency(margin.top));
  // Lines at least 60 px apart across and 24 px up (on average over the view, up).
  const semitones = 12 * Math.log2(high / low);
  request({ grid: true, times: [t0, t1], minimumStep: (t1 - t0) * 60 / plotWidth(), frequencies: [low, high],
    minimumSemitones: Math.max(1e-3, semitones * 24 / plotHeight()) }).then((reply) => {
    editor.gridAsked = false;
    if (reply.grid) { editor.grid = reply.grid; editor.gridKey = key; }
  });
}

/// The frequency grid: [frequency, label, strong (an octave's C)].
function frequencyLines() {
  if (!editor.grid) return [];
  return editor.grid.frequencies.map((f) => {
    if (editor.grid.tuned) return [f, (f < 100 ? +f.toFixed(1) : Math.round(f)) + " Hz", false];
    const midi = Math.round(69 + 12 * Math.log2(f / 440));
    return [f, noteName(midi), midi % 12 === 0];
  });
}

/// The time grid: [time, label or null]; the snap step shows as faint lines while they
/// are apart.
function timeLines() {
  if (!editor.grid) return [];
  const beat = editor.grid.beat;
  const lines = editor.grid.times.map((t) => [t, beat ? "beat " + formatNumber(t / beat + 1) : formatNumber(t) + " s"]);
  const t0 = xToTime(margin.left), t1 = xToTime(margin.left + plotWidth());
  const snapStep = timeSnapStep();
  if (snapStep > 0 && (snapStep / (t1 - t0)) * plotWidth() >= 6) {
    for (let k = Math.ceil(t0 / snapStep); k * snapStep <= t1 + 1e-9; k++) lines.push([k * snapStep, null]);
  }
  return lines;
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
  updateSnapMenu();
  updateGrid();
  const style = getComputedStyle(document.documentElement);
  const grid = style.getPropertyValue("--grid"), faint = "rgba(79,195,247,0.12)";
  ctx.font = "11px system-ui, sans-serif";
  ctx.lineWidth = 1;
  ctx.fillStyle = style.getPropertyValue("--dim");
  ctx.textAlign = "right"; ctx.textBaseline = "middle";
  for (const [f, label, strong] of frequencyLines()) {
    const y = frequencyToY(f);
    ctx.strokeStyle = label ? (strong ? "#3d4552" : grid) : faint;
    ctx.beginPath(); ctx.moveTo(margin.left, y); ctx.lineTo(w - margin.right, y); ctx.stroke();
    if (label) ctx.fillText(label, margin.left - 6, y);
  }
  ctx.textAlign = "center"; ctx.textBaseline = "top";
  for (const [t, label] of timeLines()) {
    const x = timeToX(t);
    ctx.strokeStyle = label ? grid : faint;
    ctx.beginPath(); ctx.moveTo(x, margin.top); ctx.lineTo(x, h - margin.bottom); ctx.stroke();
    if (label) ctx.fillText(label, x, h - margin.bottom + 6);
  }
  ctx.save();
  ctx.beginPath(); ctx.rect(margin.left - 6, margin.top - 6, plotWidth() + 12, plotHeight() + 12); ctx.clip();
  drawCurve(style);
  drawSelectionFrame();
  ctx.restore();
  drawPlayhead();
}

function drawCurve(style) {
  const pts = editor.points;
  ctx.strokeStyle = style.getPropertyValue("--accent"); ctx.lineWidth = 2;
  ctx.beginPath();
  if (pts.length) {
    ctx.moveTo(timeToX(0), frequencyToY(pts[0][1]));
    ctx.lineTo(timeToX(pts[0][0]), frequencyToY(pts[0][1]));
    for (let k = 0; k + 1 < pts.length; k++) {
      if (!curvatureOf(k)) { ctx.lineTo(timeToX(pts[k + 1][0]), frequencyToY(pts[k + 1][1])); continue; }
      // A bent segment: a vertex every 2 px or so, at most 256.
      const n = Math.min(256, Math.max(8, Math.ceil((timeToX(pts[k + 1][0]) - timeToX(pts[k][0])) / 2)));
      for (let i = 1; i <= n; i++) { const [t, f] = segmentAt(k, i / n); ctx.lineTo(timeToX(t), frequencyToY(f)); }
    }
    ctx.lineTo(timeToX(duration()), frequencyToY(pts[pts.length - 1][1]));
  }
  ctx.stroke();
  const g = editor.gesture;
  if (g && g.kind === "stroke") {
    ctx.strokeStyle = "rgba(255,255,255,0.5)"; ctx.lineWidth = 1; ctx.beginPath();
    g.trail.forEach(([x, y], i) => i ? ctx.lineTo(x, y) : ctx.moveTo(x, y));
    ctx.stroke();
  }
  // Points and handles (not when there are so many that they would hide the curve).
  if (pts.length > 400) return;
  ctx.lineWidth = 1.5;
  for (const k of visibleHandles()) {
    const [t, f] = handleOf(k);
    ctx.strokeStyle = curvatureOf(k) ? "#fff" : "rgba(255,255,255,0.45)";
    ctx.beginPath(); ctx.arc(timeToX(t), frequencyToY(f), 3.5, 0, 2 * Math.PI); ctx.stroke();
  }
  pts.forEach(([t, f], i) => {
    const chosen = editor.selection.has(i);
    ctx.fillStyle = chosen ? "#fff" : style.getPropertyValue("--point");
    ctx.beginPath(); ctx.arc(timeToX(t), frequencyToY(f), chosen ? 5 : 4, 0, 2 * Math.PI); ctx.fill();
  });
}

/// The segments wide enough on screen to carry a handle between their points.
function visibleHandles() {
  const list = [];
  const pts = editor.points;
  for (let k = 0; k + 1 < pts.length; k++) if (timeToX(pts[k + 1][0]) - timeToX(pts[k][0]) >= 16) list.push(k);
  return list;
}

/// The frame around two or more selected points, in pixels, with its stretch handles:
/// [name, x, y] for the edges' middles ("left" and "right" stretch time, "top" and
/// "bottom" pitch), each only where the selection spans that axis.
function selectionFrame() {
  if (editor.selection.size < 2 || editor.points.length > 400) return null;
  const pts = [...editor.selection].map((i) => editor.points[i]).filter(Boolean);
  const xs = pts.map(([t]) => timeToX(t)), ys = pts.map(([, f]) => frequencyToY(f));
  const frame = { x0: Math.min(...xs) - 8, x1: Math.max(...xs) + 8, y0: Math.min(...ys) - 8, y1: Math.max(...ys) + 8, handles: [] };
  const xm = (frame.x0 + frame.x1) / 2, ym = (frame.y0 + frame.y1) / 2;
  if (frame.x1 - frame.x0 > 18) frame.handles.push(["left", frame.x0, ym], ["right", frame.x1, ym]);
  if (frame.y1 - frame.y0 > 18) frame.handles.push(["top", xm, frame.y0], ["bottom", xm, frame.y1]);
  return frame;
}

function drawSelectionFrame() {
  const frame = selectionFrame();
  if (frame) {
    ctx.strokeStyle = "rgba(255,255,255,0.35)"; ctx.lineWidth = 1; ctx.setLineDash([4, 3]);
    ctx.strokeRect(frame.x0, frame.y0, frame.x1 - frame.x0, frame.y1 - frame.y0);
    ctx.setLineDash([]);
    ctx.fillStyle = "#fff";
    for (const [, x, y] of frame.handles) ctx.fillRect(x - 3, y - 3, 6, 6);
  }
  const g = editor.gesture;
  if (g && g.kind === "band") {
    ctx.strokeStyle = "rgba(255,255,255,0.7)"; ctx.fillStyle = "rgba(79,195,247,0.1)"; ctx.lineWidth = 1;
    const [x0, y0] = g.start, [x1, y1] = g.end;
    ctx.fillRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
    ctx.strokeRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
  }
}

function drawPlayhead() {
  const position = playheadPosition();
  if (position === null) return;
  const x = timeToX(position);
  if (x < margin.left || x > margin.left + plotWidth()) return;
  ctx.strokeStyle = "rgba(255,255,255,0.6)"; ctx.lineWidth = 1;
  ctx.beginPath(); ctx.moveTo(x, margin.top); ctx.lineTo(x, margin.top + plotHeight()); ctx.stroke();
  const f = curveAt(position);
  if (f !== null) { ctx.fillStyle = "#fff"; ctx.beginPath(); ctx.arc(x, frequencyToY(f), 3, 0, 2 * Math.PI); ctx.fill(); }
}

// The playhead follows the frames the node has played (from /stats), restarted when it
// starts playing; between reports it runs on the page's clock.
function playheadPosition() {
  if (!editor.state || !editor.state.playing || !editor.clock) return null;
  const elapsed = editor.clock.position + (performance.now() - editor.clock.at) / 1000;
  return ((elapsed % duration()) + duration()) % duration();
}

function frame() { draw(); requestAnimationFrame(frame); }
