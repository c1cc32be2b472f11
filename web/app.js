// camstamp camera: the page. Plain JavaScript against the HTTP API (docs/camera.md): the preview
// is the MJPEG stream in an <img>; the marks over it can be dragged; the shutter takes a photo
// (POST /api/shoot) or, in Video mode, starts and stops a recording (POST /api/record).
"use strict";
const $ = (id) => document.getElementById(id);
let state = null;
let busy = false;
let cancelCountdown = null;
let mode = "photo";
let recordingSince = null;
let presetList = [];
let marksKey = "";
let viewing = null;
let dragging = false;
let marksLayout = null;
const timerChoices = [0, 3, 10];

function setStatus(text, isError) {
  $("status").textContent = text;
  $("status").classList.toggle("error", !!isError);
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method, credentials: "same-origin",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let json = null;
  try { json = JSON.parse(text); } catch (_) { /* not JSON: an error line */ }
  if (!response.ok) throw new Error((json && json.error) || text.trim() || response.statusText);
  return json;
}

// Chromium can leave the multipart preview blank without an error event (seen when the camera
// moves a client that fell behind to its newest frame): reopen the stream then too.
function checkPreview() {
  if (webRTCPreview.active) return;
  const preview = $("preview");
  if (preview.complete && !preview.naturalWidth) preview.src = "stream.mjpg?" + Date.now();
}

async function refresh() {
  try {
    render(await api("GET", "/api/state"));
  } catch (error) {
    setStatus("cannot reach the camera: " + error.message, true);
  }
}

async function settings(change) {
  try {
    render(await api("POST", "/api/settings", change));
  } catch (error) {
    setStatus(error.message, true);
  }
}

function render(next) {
  state = next;
  for (const key of ["grid", "square", "mirror"]) $(key).setAttribute("aria-pressed", String(state[key]));
  $("timer").textContent = "Timer: " + (state.timer ? state.timer + " s" : "off");
  renderCameras();
  renderControls();
  renderPresets();
  renderVariables();
  renderGallery();
  renderRecording();
  refreshMarks();
  if (state.error) setStatus(state.error, true);
  else if (!busy && !recordingSince) setStatus(liveText());
}

function liveText() {
  const size = state.size ? " · " + state.size.width + "×" + state.size.height : "";
  const count = state.shots.length;
  return "live · " + state.camera.name + size + " · " + count + " photo" + (count === 1 ? "" : "s");
}

function renderCameras() {
  const select = $("camera-source");
  if (document.activeElement === select) return;
  const label = (c) => c.name + (c.source === "test" ? "" : " (" + c.source + ")");
  select.replaceChildren(...state.cameras.map((c) => new Option(label(c), c.source)));
  if (![...select.options].some((o) => o.value === state.camera.source)) {
    select.add(new Option(state.camera.name, state.camera.source));
  }
  select.value = state.camera.source;
}

function controlRow(control) {
  const row = document.createElement("label");
  row.className = "control" + (control.available ? "" : " unavailable");
  row.textContent = control.name.replace(/_/g, " ") + " ";
  let input;
  if (control.type === "menu") {
    input = document.createElement("select");
    for (const item of control.menu || []) input.add(new Option(item.label, item.value));
  } else {
    input = document.createElement("input");
    input.type = control.type === "boolean" ? "checkbox" : "range";
    for (const key of ["min", "max", "step"]) if (control[key] != null) input[key] = control[key];
  }
  if (control.type === "boolean") input.checked = !!control.value;
  else if (control.value != null) input.value = control.value;
  input.disabled = !control.available;
  input.addEventListener("change", () => settings({
    controls: { [control.name]: Number(input.type === "checkbox" ? input.checked : input.value) } }));
  row.append(input);
  if (!control.available && control.reason) {
    const reason = document.createElement("span");
    reason.className = "reason";
    reason.textContent = " (" + control.reason + ")";
    row.append(reason);
  }
  return row;
}

function renderControls() {
  const box = $("camera-controls");
  if (box.contains(document.activeElement)) return;
  if (state.controls.length) { box.replaceChildren(...state.controls.map(controlRow)); return; }
  const rows = ["focus", "exposure", "white balance", "brightness", "power-line frequency"].map((name) =>
    controlRow({ name, type: "range", available: false }));
  const reason = document.createElement("p");
  reason.className = "reason";
  reason.textContent = state.controlsReason || "this camera has no controls";
  box.replaceChildren(...rows, reason);
}

// The presets as thumbnails of the live frame with each drawn on it; a tap puts one in force or
// takes it out (several at once, in the order picked).
async function loadPresets() {
  try { presetList = await api("GET", "/api/presets"); } catch (error) { setStatus(error.message, true); return; }
  renderPresets(true);
}

function renderPresets(force) {
  const box = $("presets");
  const names = presetList.map((p) => p.name).join("\n");
  if (force || box.dataset.names !== names) {
    box.dataset.names = names;
    box.replaceChildren(...presetList.map((preset) => {
      const button = document.createElement("button");
      button.className = "preset";
      button.dataset.name = preset.name;
      button.title = preset.description;
      const image = document.createElement("img");
      image.alt = "";
      image.dataset.src = preset.preview;
      const name = document.createElement("span");
      name.textContent = preset.name;
      button.append(image, name);
      button.addEventListener("click", () => togglePreset(preset.name));
      return button;
    }));
    refreshThumbnails();
  }
  for (const button of box.children) {
    button.setAttribute("aria-pressed", String(state.active.includes(button.dataset.name)));
  }
}

// One at a time: each is drawn in turn on the camera anyway, and the browser's few connections
// to this camera stay free for the preview and the shutter.
async function refreshThumbnails() {
  const stamp = Math.floor(Date.now() / 10000);
  for (const image of $("presets").querySelectorAll("img")) {
    const url = image.dataset.src + "?t=" + stamp;
    if (image.getAttribute("src") === url) continue;
    await new Promise((resolve) => {
      image.onload = image.onerror = resolve;
      image.src = url;
    });
  }
}

function togglePreset(name) {
  const active = state.active.includes(name) ? state.active.filter((n) => n !== name) : state.active.concat([name]);
  settings({ presets: active });
}

function renderVariables() {
  const fields = $("variables");
  if (fields.contains(document.activeElement)) return;
  fields.replaceChildren(...Object.keys(state.variables).sort().map((name) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "text"; input.name = name; input.value = state.variables[name];
    input.addEventListener("change", applyMarks);
    label.append(name + " ", input);
    return label;
  }));
  if (document.activeElement !== $("text")) $("text").value = state.text || "";
}

function applyMarks() {
  const variables = {};
  for (const input of $("variables").querySelectorAll("input")) variables[input.name] = input.value;
  settings({ presets: state.active, text: $("text").value, variables });
}

function renderGallery() {
  const shots = state.shots;
  const last = shots[shots.length - 1];
  const thumb = $("last-photo");
  thumb.disabled = !last;
  $("photo-count").textContent = shots.length ? String(shots.length) : "";
  if (last && thumb.dataset.url !== last.url) { thumb.dataset.url = last.url; thumb.querySelector("img").src = last.url; }
  if (!last) { delete thumb.dataset.url; thumb.querySelector("img").removeAttribute("src"); }
  const box = $("gallery");
  const key = shots.map((s) => s.url).join("\n");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...shots.slice().reverse().map((shot) => {
    const figure = document.createElement("figure");
    const open = document.createElement("button");
    open.title = "open " + shot.name;
    const image = document.createElement("img");
    image.src = shot.url; image.alt = shot.name; image.loading = "lazy";
    open.append(image);
    open.addEventListener("click", () => openViewer(shot));
    const caption = document.createElement("figcaption");
    const size = document.createElement("span");
    size.className = "size";
    size.textContent = shot.width + "×" + shot.height;
    caption.append(shot.name + " · ", size);
    figure.append(open, caption);
    return figure;
  }));
}

function openViewer(shot) {
  viewing = shot;
  $("viewer-image").src = shot.url;
  $("viewer-image").alt = shot.name;
  $("viewer-caption").textContent = shot.name + " · " + shot.width + "×" + shot.height;
  $("viewer-download").href = shot.url + "?download=1";
  $("viewer-download").download = shot.name;
  $("viewer").hidden = false;
}

async function deleteViewed() {
  if (!viewing) return;
  try {
    await api("DELETE", viewing.url);
    setStatus("deleted " + viewing.name);
    $("viewer").hidden = true;
    viewing = null;
  } catch (error) {
    setStatus("cannot delete: " + error.message, true);
  }
  await refresh();
}

// The marks over the preview, where the photo puts them: each can be dragged; its new place is
// kept in the user's copy of its preset.
function photoRect() {
  const picture = webRTCPreview.shown();
  if (!picture.width || !marksLayout) return null;
  const box = picture.box.getBoundingClientRect();
  const scale = Math.min(box.width / picture.width, box.height / picture.height);
  const shown = { width: picture.width * scale, height: picture.height * scale };
  shown.left = box.left + (box.width - shown.width) / 2;
  shown.top = box.top + (box.height - shown.height) / 2;
  // The photo (the frame, or its centre square) inside what the preview shows.
  const layout = marksLayout;
  const fit = Math.min(shown.width / layout.width, shown.height / layout.height);
  const width = layout.width * fit, height = layout.height * fit;
  return { left: shown.left + (shown.width - width) / 2, top: shown.top + (shown.height - height) / 2,
           width, height, scale: fit };
}

async function refreshMarks(force) {
  if (!state) return;
  const key = JSON.stringify([state.active, state.text, state.variables, state.square, state.size]);
  if (!force && key === marksKey) {
    if (!$("marks").childElementCount) placeMarks();
    return;
  }
  marksKey = key;
  try { marksLayout = await api("GET", "/api/marks"); } catch (_) { marksKey = ""; return; }
  placeMarks();
}

function placeMarks() {
  if (dragging) return;
  const layer = $("marks");
  const rect = photoRect();
  if (!rect) { layer.replaceChildren(); return; }
  const frame = $("frame").getBoundingClientRect();
  Object.assign(layer.style, { left: rect.left - frame.left + "px", top: rect.top - frame.top + "px",
                               width: rect.width + "px", height: rect.height + "px" });
  layer.replaceChildren(...marksLayout.marks.filter((m) => m.preset).map((mark) => {
    const handle = document.createElement("div");
    handle.className = "mark";
    handle.title = "drag to move (" + mark.preset + ")";
    handle.dataset.preset = mark.preset;
    handle.dataset.index = mark.index;
    Object.assign(handle.style, { left: mark.x * rect.scale + "px", top: mark.y * rect.scale + "px",
                                  width: mark.width * rect.scale + "px", height: mark.height * rect.scale + "px" });
    handle.addEventListener("pointerdown", (event) => startDrag(event, handle, mark));
    return handle;
  }));
}

function startDrag(event, handle, mark) {
  event.preventDefault();
  handle.setPointerCapture(event.pointerId);
  handle.classList.add("dragging");
  dragging = true;
  const start = { x: event.clientX, y: event.clientY, left: handle.offsetLeft, top: handle.offsetTop };
  const move = (e) => {
    handle.style.left = start.left + e.clientX - start.x + "px";
    handle.style.top = start.top + e.clientY - start.y + "px";
  };
  const end = async (e) => {
    handle.removeEventListener("pointermove", move);
    handle.removeEventListener("pointerup", end);
    handle.removeEventListener("pointercancel", end);
    handle.classList.remove("dragging");
    dragging = false;
    const rect = photoRect();
    const dx = (e.clientX - start.x) / rect.width, dy = (e.clientY - start.y) / rect.height;
    if (Math.abs(e.clientX - start.x) < 2 && Math.abs(e.clientY - start.y) < 2) return;
    try {
      const kept = await api("POST", "/api/marks/move", { preset: mark.preset, mark: mark.index, dx, dy });
      setStatus("moved; kept in " + kept.file);
      refreshThumbnails();
    } catch (error) {
      setStatus("cannot move the mark: " + error.message, true);
    }
    refreshMarks(true);
  };
  handle.addEventListener("pointermove", move);
  handle.addEventListener("pointerup", end);
  handle.addEventListener("pointercancel", end);
}

function countdown(seconds) {
  return new Promise((resolve, reject) => {
    const box = $("countdown");
    let left = seconds;
    box.hidden = false;
    box.textContent = left;
    const tick = setInterval(() => {
      left -= 1;
      if (left > 0) { box.textContent = left; return; }
      clearInterval(tick); box.hidden = true; cancelCountdown = null; resolve();
    }, 1000);
    cancelCountdown = () => {
      clearInterval(tick); box.hidden = true; cancelCountdown = null; reject(new Error("cancelled"));
    };
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function shoot() {
  if (busy) { if (cancelCountdown) cancelCountdown(); return; }
  busy = true;
  let saved = null;
  try {
    if (state && state.timer) await countdown(state.timer);
    const count = Math.max(1, Math.min(100, Number($("burst-count").value) || 1));
    const interval = Math.max(0.2, Number($("burst-interval").value) || 1);
    for (let i = 0; i < count; i++) {
      if (i > 0) await sleep(interval * 1000);
      setStatus(count > 1 ? "shooting " + (i + 1) + "/" + count + "…" : "shooting…");
      saved = (await api("POST", "/api/shoot")).path;
      setStatus("saved " + saved);
    }
  } catch (error) {
    if (error.message !== "cancelled") setStatus("photo failed: " + error.message, true);
    else setStatus("timer cancelled");
  } finally {
    busy = false;
    await refresh();
    if (saved && state && !state.error) setStatus("saved " + saved);
  }
}

// Video: the record button starts and stops POST /api/record; the timer runs meanwhile.
function setMode(next) {
  if (recordingSince) return;
  mode = next;
  $("mode-photo").setAttribute("aria-checked", String(mode === "photo"));
  $("mode-video").setAttribute("aria-checked", String(mode === "video"));
  $("shoot").classList.toggle("video", mode === "video");
  $("shoot").textContent = mode === "video" ? "Record" : "Shoot";
}

async function toggleRecording() {
  if (busy) return;
  busy = true;
  try {
    if (!recordingSince) {
      await api("POST", "/api/record", { action: "start" });
      recordingSince = Date.now();
      setStatus("recording…");
    } else {
      const done = await api("POST", "/api/record", { action: "stop" });
      recordingSince = null;
      setStatus("saved " + done.path);
    }
  } catch (error) {
    setStatus("recording failed: " + error.message, true);
  } finally {
    busy = false;
    renderRecording();
  }
}

function renderRecording() {
  // The camera says whether it records (another page may have started it):
  // {"recording": true, "seconds": 12.5, …} in /api/state.
  const status = state && state.recording;
  const on = status === true || !!(status && (status.recording || status.active));
  if (!busy && status != null) {
    if (!on) recordingSince = null;
    else if (!recordingSince) {
      setMode("video");
      recordingSince = Date.now() - (Number(status.seconds) || 0) * 1000;
    }
  }
  $("shoot").classList.toggle("recording", !!recordingSince);
  $("shoot").textContent = recordingSince ? "Stop" : mode === "video" ? "Record" : "Shoot";
  $("record-time").hidden = !recordingSince;
  $("mode-photo").disabled = !!recordingSince;
}

function tickRecording() {
  if (!recordingSince) return;
  const seconds = Math.max(0, Math.floor((Date.now() - recordingSince) / 1000));
  $("record-time").textContent = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
}

// A photo from the album, stamped with the marks in force (as batch stamps it) and kept.
async function stampAlbumPhoto(file) {
  setStatus("stamping " + file.name + "…");
  try {
    const response = await fetch("/api/stamp?name=" + encodeURIComponent(file.name), {
      method: "POST", credentials: "same-origin", body: file,
      headers: { "Content-Type": file.type || "application/octet-stream" } });
    if (!response.ok) {
      const text = await response.text();
      let message = text.trim();
      try { message = JSON.parse(text).error || message; } catch (_) { /* an error line */ }
      throw new Error(message);
    }
    const path = response.headers.get("X-Camstamp-Path");
    await refresh();
    const shot = state.shots.find((s) => s.path === path);
    if (shot) openViewer(shot);
    setStatus("stamped " + file.name + ": " + path);
  } catch (error) {
    setStatus("cannot stamp " + file.name + ": " + error.message, true);
  }
}

function openPanel(id, open) {
  $(id).hidden = !open;
  if (id === "drawer") $("open-drawer").setAttribute("aria-expanded", String(open));
}

$("shoot").addEventListener("click", () => (mode === "video" ? toggleRecording() : shoot()));
$("mode-photo").addEventListener("click", () => setMode("photo"));
$("mode-video").addEventListener("click", () => setMode("video"));
for (const key of ["grid", "square", "mirror"]) $(key).addEventListener("click", () => settings({ [key]: !state[key] }));
$("timer").addEventListener("click", () =>
  settings({ timer: timerChoices[(timerChoices.indexOf(state.timer) + 1) % timerChoices.length] }));
$("camera-source").addEventListener("change", () => settings({ camera: $("camera-source").value }));
$("apply").addEventListener("click", applyMarks);
for (const id of ["burst-count", "burst-interval"]) {
  $(id).addEventListener("change", () => settings({
    burst: { count: Number($("burst-count").value), interval: Number($("burst-interval").value) } }));
}
$("open-drawer").addEventListener("click", () => openPanel("drawer", $("drawer").hidden));
$("close-drawer").addEventListener("click", () => openPanel("drawer", false));
$("last-photo").addEventListener("click", () => openPanel("gallery-view", true));
$("close-gallery").addEventListener("click", () => openPanel("gallery-view", false));
$("viewer-close").addEventListener("click", () => { $("viewer").hidden = true; viewing = null; });
$("viewer-delete").addEventListener("click", deleteViewed);
$("album-file").addEventListener("change", () => {
  const file = $("album-file").files[0];
  $("album-file").value = "";
  if (file) stampAlbumPhoto(file);
});
document.addEventListener("keydown", (event) => {
  if (event.target.matches("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
  const action = { " ": () => $("shoot").click(), g: () => $("grid").click(), s: () => $("square").click(),
                   m: () => $("mirror").click(), t: () => $("timer").click(),
                   escape: () => { $("viewer").hidden = true; openPanel("drawer", false); openPanel("gallery-view", false); },
                 }[event.key.toLowerCase()];
  if (action) { event.preventDefault(); action(); }
});
// A stalled stream (the camera restarted, the network dropped) is reopened.
$("preview").addEventListener("error", () => setTimeout(() => {
  if (!webRTCPreview.active) $("preview").src = "stream.mjpg?" + Date.now();
}, 1000));
$("live").addEventListener("resize", placeMarks);
webRTCPreview.start();
$("preview").addEventListener("load", placeMarks, { once: true });
window.addEventListener("resize", placeMarks);
refresh().then(loadPresets);
setInterval(refresh, 3000);
setInterval(refreshThumbnails, 10000);
setInterval(tickRecording, 250);
setInterval(checkPreview, 1000);
