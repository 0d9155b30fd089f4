// What is done to the selected points: stretch and flip about the selection's own centre,
// copy, cut and paste through the system clipboard as text, and exact entry of a point's
// time and frequency (in Hz, or a note name with cents: A4+12). The node computes each with
// the editing model both editors share (editOnNode in curve-editing.js); its clipboard text
// (a line a point, "time frequency [curvature]") pastes between the page, the plugin's
// window and a text editor.
"use strict";

function selectedIndices() { return [...editor.selection].sort((a, b) => a - b); }

function needSelection() {
  if (editor.selection.size) return true;
  say("select points first (drag a frame around them, Shift-click, Ctrl+A)");
  return false;
}

function stretchFactor() {
  const factor = Number($("stretch-factor").value);
  if (!(factor > 0)) { say("the stretch factor must be a number above 0, such as 2 or 0.5"); return null; }
  return factor;
}
$("stretch-time").onclick = () => { const k = stretchFactor(); if (k && needSelection()) editOnNode("stretch", { timeFactor: k }); };
$("stretch-pitch").onclick = () => { const k = stretchFactor(); if (k && needSelection()) editOnNode("stretch", { pitchFactor: k }); };
$("flip-time").onclick = () => { if (needSelection()) editOnNode("flipTime"); };
$("flip-pitch").onclick = () => { if (needSelection()) editOnNode("flipPitch"); };
$("select-all").onclick = () => { editor.selection = new Set(editor.points.keys()); canvas.focus(); };
$("delete-points").onclick = () => removePoints(editor.selection);

// ---------- clipboard ----------

/// Copies the selection (nothing selected: the whole curve) as the node writes it.
async function copyPoints() {
  const chosen = editor.selection.size ? editor.selection : new Set(editor.points.keys());
  const reply = await request(editMessage("copy", {}, bentPoints(), chosen));
  if (!reply.ok) return false;
  try {
    await navigator.clipboard.writeText(reply.text);
    editor.copied = reply.text;   // for tests
    return true;
  } catch (error) {
    say("the browser refused the clipboard: " + error.message);
    return false;
  }
}

/// Pastes points at their own times: they replace the curve's points in the span they
/// cover, and become the selection (to be moved where they belong).
function pastePoints(text) { editOnNode("paste", { text }); }

// Ctrl+C, Ctrl+X and Ctrl+V on the curve, and the buttons. The text comes from the node,
// so a copy is written with the asynchronous clipboard (allowed on localhost); a paste
// reads the text the browser hands its event.
document.addEventListener("copy", (event) => {
  if (document.activeElement !== canvas || !editor.points.length) return;
  event.preventDefault();
  copyPoints();
});
document.addEventListener("cut", (event) => {
  if (document.activeElement !== canvas || !editor.selection.size) return;
  event.preventDefault();
  const chosen = new Set(editor.selection);
  copyPoints().then((copied) => { if (copied) removePoints(chosen); });
});
document.addEventListener("paste", (event) => {
  if (document.activeElement !== canvas) return;
  event.preventDefault();
  pastePoints(event.clipboardData.getData("text/plain"));
});
$("copy").onclick = () => copyPoints();
$("cut").onclick = async () => { const chosen = new Set(editor.selection); if (chosen.size && (await copyPoints())) removePoints(chosen); };
$("paste").onclick = async () => {
  try { pastePoints(await navigator.clipboard.readText()); } catch (error) { say("the browser refused the clipboard: " + error.message); }
};

// ---------- exact entry ----------

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

// The node reads what was typed (Hz, kHz, a note such as A4+12; s or ms) and says what it
// could not read; the form stays open until it is right.
$("entry").addEventListener("submit", async (event) => {
  event.preventDefault();
  const indices = editor.entry;
  if (!indices) return closeEntry();
  const fields = { frequency: $("entry-frequency").value };
  if (indices.length === 1) fields.time = $("entry-time").value;
  const reply = await editOnNode("enter", fields, new Set(indices));
  if (reply.ok) closeEntry();
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
