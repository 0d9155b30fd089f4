// What is done to the selected points: stretch and flip (about the selection's own
// centre), copy, cut and paste through the system clipboard as text, and exact entry of a
// point's time and frequency (in Hz, or a note name with cents: A4+12).
"use strict";

function selectedIndices() { return [...editor.selection].sort((a, b) => a - b); }

/// The curve `before` ([t, f, c] a point) with `move` ([t, f] -> [t, f]) applied to the
/// points of `selection`, back in time order. Returns the curve and the moved points' new
/// indices. A segment keeps its bend while its two points stay neighbours (negated when
/// `move` reversed them: a flip mirrors it); a segment new between a point that stayed and
/// one that moved takes the bend of the segment the unmoved point had on that side.
function transformed(before, selection, move) {
  const list = before.map((p, i) => ({ t: p[0], f: p[1], c: p[2], old: i, chosen: selection.has(i) }));
  // Twelve significant digits: a flip there and back, or a stretch by 2 then by 0.5, gives
  // the numbers typed, not 800.0000000000003.
  const clean = (v) => +v.toPrecision(12);
  for (const p of list) if (p.chosen) [p.t, p.f] = move(p.t, p.f).map(clean);
  for (const p of list) { p.t = Math.min(duration(), Math.max(0, p.t)); }
  list.sort((a, b) => a.t - b.t || a.old - b.old);
  const bent = list.map((a, k) => {
    const b = list[k + 1];
    if (!b || b.old === a.old + 1) return [a.t, a.f, a.c];
    if (b.old === a.old - 1) return [a.t, a.f, -b.c];
    if (!a.chosen) return [a.t, a.f, a.c];
    if (!b.chosen && b.old > 0) return [a.t, a.f, before[b.old - 1][2]];
    return [a.t, a.f, a.c];
  });
  return { bent, selection: list.flatMap((p, k) => (p.chosen ? [k] : [])) };
}

/// Applies `move` to the selected points as one edit.
function transformSelection(move) {
  if (!editor.selection.size) { say("select points first (drag a frame around them, Shift-click, Ctrl+A)"); return; }
  const { bent, selection } = transformed(bentPoints(), editor.selection, move);
  changeCurve(bent, selection);
}

/// The selection's extent: its first and last time, its lowest and highest pitch (log2 Hz).
function selectionBounds() {
  const pts = selectedIndices().map((i) => editor.points[i]);
  const times = pts.map((p) => p[0]), pitches = pts.map((p) => Math.log2(Math.max(p[1], 1e-9)));
  return { t: (Math.min(...times) + Math.max(...times)) / 2, p: (Math.min(...pitches) + Math.max(...pitches)) / 2 };
}

function stretchTime(factor) {
  if (!editor.selection.size) return transformSelection(null);
  const { t: centre } = selectionBounds();
  transformSelection((t, f) => [centre + (t - centre) * factor, f]);
}
function stretchPitch(factor) {
  if (!editor.selection.size) return transformSelection(null);
  const { p: centre } = selectionBounds();
  transformSelection((t, f) => [t, Math.pow(2, centre + (Math.log2(f) - centre) * factor)]);
}
function flipTime() {
  if (!editor.selection.size) return transformSelection(null);
  const { t: centre } = selectionBounds();
  transformSelection((t, f) => [2 * centre - t, f]);
}
function flipPitch() {
  if (!editor.selection.size) return transformSelection(null);
  const { p: centre } = selectionBounds();
  transformSelection((t, f) => [t, Math.pow(2, 2 * centre - Math.log2(f))]);
}

function stretchFactor() {
  const factor = Number($("stretch-factor").value);
  if (!(factor > 0)) { say("the stretch factor must be a number above 0, such as 2 or 0.5"); return null; }
  return factor;
}
$("stretch-time").onclick = () => { const k = stretchFactor(); if (k) stretchTime(k); };
$("stretch-pitch").onclick = () => { const k = stretchFactor(); if (k) stretchPitch(k); };
$("flip-time").onclick = () => flipTime();
$("flip-pitch").onclick = () => flipPitch();
$("select-all").onclick = () => { editor.selection = new Set(editor.points.keys()); canvas.focus(); };
$("delete-points").onclick = () => removePoints(editor.selection);

// ---------- clipboard ----------

/// The clipboard's text: a line a point, "time frequency curvature" (seconds, Hz, the bend
/// of the segment it begins), readable in a text editor and pasted back as it was.
function clipboardText(indices) {
  const list = bentPoints();
  const lines = indices.map((i, k) => {
    const [t, f, c] = list[i];
    const bend = k + 1 < indices.length && indices[k + 1] === i + 1 ? c : 0;
    // Each number as JavaScript writes it: the shortest text that reads back the same.
    return `${t}\t${f}\t${bend}`;
  });
  return "# ToneShaper points: time (s), frequency (Hz), curvature\n" + lines.join("\n") + "\n";
}

/// The points a clipboard text holds, or null when it holds none.
function readClipboardText(text) {
  const points = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const numbers = line.split(/[\s,;]+/).map(Number);
    if (numbers.length < 2 || numbers.length > 3 || numbers.some((n) => !Number.isFinite(n))) return null;
    points.push([numbers[0], numbers[1], numbers[2] || 0]);
  }
  return points.length ? points : null;
}

function copiedIndices() { return editor.selection.size ? selectedIndices() : [...editor.points.keys()]; }

/// Pastes points at their own times: they replace the curve's points in the span they
/// cover, and become the selection (to be moved where they belong).
function paste(text) {
  const pasted = readClipboardText(text);
  if (!pasted) { say("the clipboard holds no points (lines of: time frequency [curvature])"); return; }
  pasted.sort((a, b) => a[0] - b[0]);
  const t0 = pasted[0][0], t1 = pasted[pasted.length - 1][0];
  if (t0 < 0 || t1 > duration()) { say(`the pasted points run from ${t0} s to ${t1} s, outside the cycle (0 to ${duration()} s); nothing changed`); return; }
  const left = bentPoints().filter((p) => p[0] < t0);
  if (left.length) left[left.length - 1][2] = 0;
  const right = bentPoints().filter((p) => p[0] > t1);
  pasted[pasted.length - 1][2] = 0;
  changeCurve(left.concat(pasted, right), pasted.map((_, k) => left.length + k));
}

// Ctrl+C, Ctrl+X and Ctrl+V on the curve: the browser's own clipboard events, which need
// no permission; the buttons use the asynchronous clipboard (allowed on localhost).
document.addEventListener("copy", (event) => {
  if (document.activeElement !== canvas || !editor.points.length) return;
  event.clipboardData.setData("text/plain", clipboardText(copiedIndices()));
  event.preventDefault();
});
document.addEventListener("cut", (event) => {
  if (document.activeElement !== canvas || !editor.selection.size) return;
  event.clipboardData.setData("text/plain", clipboardText(selectedIndices()));
  event.preventDefault();
  removePoints(editor.selection);
});
document.addEventListener("paste", (event) => {
  if (document.activeElement !== canvas) return;
  event.preventDefault();
  paste(event.clipboardData.getData("text/plain"));
});
async function writeClipboard(text) {
  try { await navigator.clipboard.writeText(text); } catch (error) { say("the browser refused the clipboard: " + error.message); }
}
$("copy").onclick = () => writeClipboard(clipboardText(copiedIndices()));
$("cut").onclick = async () => {
  if (!editor.selection.size) return;
  await writeClipboard(clipboardText(selectedIndices()));
  removePoints(editor.selection);
};
$("paste").onclick = async () => {
  try { paste(await navigator.clipboard.readText()); } catch (error) { say("the browser refused the clipboard: " + error.message); }
};

// ---------- exact entry ----------

const NOTE_STEPS = { c: 0, d: 2, e: 4, f: 5, g: 7, a: 9, b: 11 };

/// A frequency typed as Hz ("443", "443 Hz") or as a note name with optional cents
/// ("A4", "C#3", "Bb2-30", "A4+12"; A4 = 440 Hz, 12-TET); null if it is neither.
function parseFrequency(text) {
  const s = text.trim().replace(/\s*hz$/i, "");
  if (/^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return Number(s);
  const m = /^([A-Ga-g])([#♯b♭]?)(-?\d+)\s*(?:([+-]\s*\d+(?:\.\d+)?)\s*(?:c|ct|cents?)?)?$/.exec(s);
  if (!m) return null;
  const accidental = m[2] === "#" || m[2] === "♯" ? 1 : m[2] ? -1 : 0;
  const midi = 12 * (Number(m[3]) + 1) + NOTE_STEPS[m[1].toLowerCase()] + accidental;
  const cents = m[4] ? Number(m[4].replace(/\s/g, "")) : 0;
  return 440 * Math.pow(2, (midi - 69 + cents / 100) / 12);
}
editor.parseFrequency = parseFrequency;   // for tests

/// Opens the entry form by the points: one point's time and frequency, or for several the
/// frequency they all take (their times stay).
function openEntry(indices) {
  const form = $("entry");
  editor.entry = indices;
  const [t, f] = editor.points[indices[indices.length - 1]];
  $("entry-time").value = indices.length === 1 ? +t.toPrecision(9) : "";
  $("entry-time").disabled = indices.length > 1;
  $("entry-frequency").value = indices.length === 1 || indices.every((i) => editor.points[i][1] === f) ? +f.toPrecision(9) : "";
  const r = canvas.getBoundingClientRect(), panel = $("curve-panel").getBoundingClientRect();
  form.style.left = Math.min(r.width - 260, Math.max(0, timeToX(t) + 12)) + (r.left - panel.left) + "px";
  form.style.top = Math.min(r.height - 90, Math.max(0, frequencyToY(f) + 12)) + (r.top - panel.top) + "px";
  form.hidden = false;
  $("entry-frequency").focus();
  $("entry-frequency").select();
}

function closeEntry() { $("entry").hidden = true; editor.entry = null; canvas.focus(); }

$("entry").addEventListener("submit", (event) => {
  event.preventDefault();
  const indices = editor.entry;
  if (!indices) return closeEntry();
  const f = parseFrequency($("entry-frequency").value);
  if (f === null || !(f > 0)) { say(`"${$("entry-frequency").value}" is neither a frequency in Hz nor a note such as A4+12`); return; }
  const list = bentPoints();
  if (indices.length === 1) {
    const t = Number($("entry-time").value);
    const i = indices[0];
    const lo = i > 0 ? list[i - 1][0] : 0, hi = i < list.length - 1 ? list[i + 1][0] : duration();
    if (!Number.isFinite(t) || t < lo || t > hi) { say(`the time must lie between its neighbours, ${+lo.toFixed(6)} s and ${+hi.toFixed(6)} s`); return; }
    list[i][0] = t;
  }
  for (const i of indices) list[i][1] = f;
  changeCurve(list, indices);
  closeEntry();
});
$("entry-cancel").onclick = () => closeEntry();
$("entry").addEventListener("keydown", (event) => { if (event.key === "Escape") { event.preventDefault(); closeEntry(); } });

canvas.addEventListener("dblclick", (event) => {
  const [x, y] = localPoint(event);
  const hit = hitPoint(x, y);
  if (hit >= 0) { editor.selection = new Set([hit]); openEntry([hit]); return; }
  // A double-click on a handle straightens its segment (as Alt-click does).
  const handle = hitHandle(x, y);
  if (handle >= 0 && curvatureOf(handle)) { const list = bentPoints(); list[handle][2] = 0; changeCurve(list); }
});
