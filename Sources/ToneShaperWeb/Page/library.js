// The shape library: the built-in shapes and the user's own, each with a thumbnail of its
// curve (the node reads the documents and lays out each outline; the page draws it).
// Open a shape, save the current one under a name, rename one of the user's.
"use strict";

async function loadLibrary() {
  const response = await fetch(withToken("/library"));
  showLibrary(await response.json());
}

function showLibrary(library) {
  editor.library = library;
  const list = $("shapes");
  list.textContent = "";
  for (const [title, entries, own] of [["Your shapes", library.user, true], ["Built-in", library.builtIn, false]]) {
    if (!entries.length) continue;
    const heading = document.createElement("h3");
    heading.textContent = title;
    list.appendChild(heading);
    const grid = document.createElement("div");
    grid.className = "shape-grid";
    for (const entry of entries) grid.appendChild(shapeCard(entry, own));
    list.appendChild(grid);
  }
}

function shapeCard(entry, own) {
  const card = document.createElement("div");
  card.className = "shape";
  card.dataset.shape = entry.name;
  card.title = entry.problem || entry.description || entry.name;
  const open = document.createElement("button");
  open.className = "shape-open";
  open.setAttribute("aria-label", "Open " + entry.name);
  const picture = document.createElement("canvas");
  picture.width = 112; picture.height = 48;
  drawThumbnail(picture, entry.thumbnail || []);
  open.appendChild(picture);
  const name = document.createElement("span");
  name.className = "shape-name";
  name.textContent = entry.name;
  open.appendChild(name);
  open.disabled = !!entry.problem;
  open.onclick = () => openShape(entry.name);
  card.appendChild(open);
  // A shape in the folder earlier versions saved into is only read: opened, saved anew,
  // never renamed there.
  if (own && !entry.olderFolder) {
    const rename = document.createElement("button");
    rename.className = "shape-rename";
    rename.textContent = "Rename";
    rename.onclick = () => startRename(card, entry.name);
    card.appendChild(rename);
  }
  return card;
}

/// The outline x0 y0 x1 y1 ... (0...1, y up) in the thumbnail's box.
function drawThumbnail(picture, outline) {
  const g = picture.getContext("2d");
  const style = getComputedStyle(document.documentElement);
  g.fillStyle = "#101216"; g.fillRect(0, 0, picture.width, picture.height);
  g.strokeStyle = style.getPropertyValue("--accent"); g.lineWidth = 1.5;
  g.beginPath();
  for (let i = 0; i + 1 < outline.length; i += 2) {
    const x = 3 + outline[i] * (picture.width - 6), y = picture.height - 3 - outline[i + 1] * (picture.height - 6);
    i ? g.lineTo(x, y) : g.moveTo(x, y);
  }
  g.stroke();
}

function openShape(name) {
  // Another document: the history of this one no longer applies.
  editor.undo = []; editor.redo = []; updateUndoButtons();
  editor.selection.clear();
  resetView();
  send("load", [name]);
}

function startRename(card, name) {
  const field = document.createElement("input");
  field.className = "shape-rename-field";
  field.value = name;
  field.setAttribute("aria-label", "New name for " + name);
  card.querySelector(".shape-name").replaceWith(field);
  field.focus(); field.select();
  let done = false;
  const finish = async (commit) => {
    if (done) return;
    done = true;
    const to = field.value.trim();
    if (commit && to && to !== name) {
      const reply = await request({ rename: name, to });
      if (reply.library) { showLibrary(reply.library); return; }
    }
    showLibrary(editor.library);
  };
  field.onkeydown = (event) => {
    if (event.key === "Enter") finish(true);
    else if (event.key === "Escape") finish(false);
    event.stopPropagation();
  };
  field.onblur = () => finish(true);
}

$("save").onclick = async () => {
  const name = $("save-name").value.trim();
  if (!name) { say("give the shape a name to save it under"); return; }
  const reply = await request({ address: "save", args: [name] });
  if (reply.ok) await loadLibrary();
};
