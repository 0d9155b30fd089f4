"use strict";
// The tuning panel: load a Scala scale (.scl) and keyboard map (.kbm) from the user's disk
// (their texts go to the node as /tuning/scale and /tuning/map, over the editor's
// WebSocket), reset to 12-TET, and show what tuning plays as the node says it: the state's
// "tuning" (the scale's description line, its degrees in cents, the map's size). It uses
// editor.js's send() and is called by its adopt() with every state.

function readTuningFile(input, address) {
  const file = input.files && input.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { send(address, [String(reader.result)]); input.value = ""; };
  reader.onerror = () => say(`could not read ${file.name}`);
  reader.readAsText(file);
}

// The tuning the node plays (undefined: 12-TET), shown by name and degrees.
function showTuning(tuning) {
  const name = $("tuning-name"), degrees = $("tuning-degrees");
  $("tuning-reset").disabled = !tuning;
  $("tuning-no-map").disabled = !(tuning && tuning.keyboardMap);
  if (!tuning) {
    name.textContent = "12-TET (no scale)";
    degrees.textContent = "";
    return;
  }
  name.textContent = tuning.description || "(a scale without a description)";
  const cents = tuning.cents.map((c) => +c.toFixed(3));
  const map = tuning.keyboardMap
    ? ` · keyboard map of ${tuning.keyboardMap.size || "every"} key${tuning.keyboardMap.size === 1 ? "" : "s"}`
    : " · laid out from the root note";
  degrees.textContent = `${cents.length} degrees (cents): ${cents.join(", ")}${map}`;
}

$("tuning-scale").addEventListener("change", (event) => readTuningFile(event.target, "tuning/scale"));
$("tuning-map").addEventListener("change", (event) => readTuningFile(event.target, "tuning/map"));
$("tuning-reset").addEventListener("click", () => send("tuning/reset", []));
$("tuning-no-map").addEventListener("click", () => send("tuning/map", ["none"]));
showTuning(undefined);
