// camstamp camera: the page. Plain JavaScript against the HTTP API (GET /api/state,
// POST /api/shoot, POST /api/settings); the preview is the MJPEG stream in an <img>.
"use strict";
const $ = (id) => document.getElementById(id);
let state = null;
let busy = false;
let cancelCountdown = null;
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
  const camera = $("camera");
  camera.replaceChildren(...state.cameras.map((c) => new Option(c.name + (c.source === "test" ? "" : " (" + c.source + ")"), c.source)));
  if (![...camera.options].some((o) => o.value === state.camera.source)) camera.add(new Option(state.camera.name, state.camera.source));
  camera.value = state.camera.source;
  renderControls();
  renderMarks();
  renderGallery();
  if (state.error) setStatus(state.error, true);
  else if (!busy) setStatus("live · " + state.camera.name + (state.size ? " · " + state.size.width + "×" + state.size.height : "") +
    " · " + state.shots.length + " photo" + (state.shots.length === 1 ? "" : "s"));
}

function renderControls() {
  const box = $("camera-controls");
  box.replaceChildren();
  if (!state.controls.length) {
    for (const name of ["focus", "exposure", "white balance", "brightness", "power-line frequency"]) {
      const row = document.createElement("label");
      row.className = "control unavailable";
      row.textContent = name + " ";
      const input = document.createElement("input");
      input.type = "range"; input.disabled = true;
      row.append(input);
      box.append(row);
    }
    const reason = document.createElement("p");
    reason.className = "reason";
    reason.textContent = state.controlsReason || "this camera has no controls";
    box.append(reason);
    return;
  }
  for (const control of state.controls) {
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
      if (control.min != null) input.min = control.min;
      if (control.max != null) input.max = control.max;
      if (control.step != null) input.step = control.step;
    }
    if (control.type === "boolean") input.checked = !!control.value; else if (control.value != null) input.value = control.value;
    input.disabled = !control.available;
    input.addEventListener("change", () => settings({ controls: { [control.name]: Number(input.type === "checkbox" ? input.checked : input.value) } }));
    row.append(input);
    if (!control.available && control.reason) {
      const reason = document.createElement("span");
      reason.className = "reason";
      reason.textContent = " (" + control.reason + ")";
      row.append(reason);
    }
    box.append(row);
  }
}

function renderMarks() {
  const box = $("presets");
  if (document.activeElement && box.contains(document.activeElement)) return;
  box.replaceChildren(...state.presets.map((preset) => {
    const label = document.createElement("label");
    const check = document.createElement("input");
    check.type = "checkbox"; check.value = preset.name; check.checked = state.active.includes(preset.name);
    label.append(check, " " + preset.name);
    label.title = preset.description;
    return label;
  }));
  if (document.activeElement !== $("text")) $("text").value = state.text || "";
  const fields = $("variables");
  if (fields.contains(document.activeElement)) return;
  fields.replaceChildren(...Object.keys(state.variables).sort().map((name) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "text"; input.name = name; input.value = state.variables[name];
    label.append(name + " ", input);
    return label;
  }));
}

function renderGallery() {
  const box = $("gallery");
  if (box.childElementCount === state.shots.length) return;
  box.replaceChildren(...state.shots.slice().reverse().map((shot) => {
    const figure = document.createElement("figure");
    const link = document.createElement("a");
    link.href = shot.url + "?download=1";
    link.download = shot.name;
    const image = document.createElement("img");
    image.src = shot.url; image.alt = shot.name; image.loading = "lazy";
    link.append(image);
    const caption = document.createElement("figcaption");
    caption.textContent = shot.name + " · " + shot.width + "×" + shot.height;
    figure.append(link, caption);
    return figure;
  }));
}

function applyMarks() {
  const presets = [...$("presets").querySelectorAll("input:checked")].map((c) => c.value);
  const variables = {};
  for (const input of $("variables").querySelectorAll("input")) variables[input.name] = input.value;
  settings({ presets, text: $("text").value, variables });
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
    cancelCountdown = () => { clearInterval(tick); box.hidden = true; cancelCountdown = null; reject(new Error("cancelled")); };
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function shoot() {
  if (busy) { if (cancelCountdown) cancelCountdown(); return; }
  busy = true;
  $("shoot").disabled = false;
  try {
    if (state && state.timer) await countdown(state.timer);
    const count = Math.max(1, Math.min(100, Number($("burst-count").value) || 1));
    const interval = Math.max(0.2, Number($("burst-interval").value) || 1);
    for (let i = 0; i < count; i++) {
      if (i > 0) await sleep(interval * 1000);
      setStatus(count > 1 ? "shooting " + (i + 1) + "/" + count + "…" : "shooting…");
      const shot = await api("POST", "/api/shoot");
      setStatus("saved " + shot.path);
    }
  } catch (error) {
    if (error.message !== "cancelled") setStatus("photo failed: " + error.message, true);
    else setStatus("timer cancelled");
  } finally {
    busy = false;
    await refresh();
    if (state && !state.error) setStatus("saved " + state.shots[state.shots.length - 1].path);
  }
}

$("shoot").addEventListener("click", shoot);
for (const key of ["grid", "square", "mirror"]) $(key).addEventListener("click", () => settings({ [key]: !state[key] }));
$("timer").addEventListener("click", () => settings({ timer: timerChoices[(timerChoices.indexOf(state.timer) + 1) % timerChoices.length] }));
$("camera").addEventListener("change", () => settings({ camera: $("camera").value }));
$("apply").addEventListener("click", applyMarks);
for (const id of ["burst-count", "burst-interval"]) {
  $(id).addEventListener("change", () => settings({ burst: { count: Number($("burst-count").value), interval: Number($("burst-interval").value) } }));
}
document.addEventListener("keydown", (event) => {
  if (event.target.matches("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
  const action = { " ": () => shoot(), g: () => $("grid").click(), s: () => $("square").click(),
                   m: () => $("mirror").click(), t: () => $("timer").click() }[event.key.toLowerCase()];
  if (action) { event.preventDefault(); action(); }
});
// A stalled stream (the camera restarted, the network dropped) is reopened.
$("preview").addEventListener("error", () => setTimeout(() => { $("preview").src = "stream.mjpg?" + Date.now(); }, 1000));
refresh();
setInterval(refresh, 3000);
