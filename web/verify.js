// The verify page: the file picked or dropped is POSTed to this camstamp's /api/verify, which
// answers what `camstamp verify --json` prints; this page says it in words.
"use strict";

const verdicts = {
  trusted: ["Trusted", "Signed by someone you trust, and unchanged since it was signed."],
  valid: ["Signed by someone you have not said you trust",
    "Unchanged since it was signed, but this camstamp was given no certificates to trust (--trust)."],
  untrusted: ["Signed by someone you have not said you trust",
    "Unchanged since it was signed, but the signer is none of the ones you trust."],
  tampered: ["Changed after signing", "The picture, the clip or its credentials changed after it was signed."],
  invalid: ["Its credentials do not hold", "The signature or the credentials are not valid."],
  remote: ["Its credentials are elsewhere", "The file names credentials on the web, which this page does not fetch."],
  unsigned: ["No credentials", "The file carries no Content Credentials: nothing says who made it or what was done."],
  unreadable: ["Not a file this page can check", ""],
  copy: ["A copy of a signed photo", ""],
  checking: ["Checking", ""],
};

function say(state, extra) {
  const [title, text] = verdicts[state] || [state, ""];
  const box = document.getElementById("verdict");
  box.className = "verdict " + ({valid: "untrusted", tampered: "changed", copy: "remote"}[state] || state);
  document.getElementById("verdict-title").textContent = title;
  document.getElementById("verdict-text").textContent = extra || text;
}

function fact(list, name, value) {
  if (!value) return;
  const dt = document.createElement("dt"), dd = document.createElement("dd");
  dt.textContent = name;
  dd.textContent = value;
  list.append(dt, dd);
}

function items(id, values) {
  const list = document.getElementById(id);
  list.replaceChildren(...values.map((text) => Object.assign(document.createElement("li"), {textContent: text})));
  document.getElementById(id + "-title").hidden = values.length === 0;
}

// A rectangle of the stored picture (W×H) where it shows once its EXIF orientation turns it.
function upright(o, W, H, [x, y, w, h]) {
  switch (o) {
    case 2: return [W - x - w, y, w, h];
    case 3: return [W - x - w, H - y - h, w, h];
    case 4: return [x, H - y - h, w, h];
    case 5: return [y, x, h, w];
    case 6: return [H - y - h, x, h, w];
    case 7: return [H - y - h, W - x - w, h, w];
    case 8: return [y, W - x - w, h, w];
    default: return [x, y, w, h];
  }
}

// The photo with its changed blocks outlined and the rest dimmed: what differs from the parent.
async function drawChanges(regions) {
  const figure = document.getElementById("changes"), preview = document.getElementById("preview");
  figure.hidden = true;
  if (!regions || preview.hidden) return 0;
  try { await preview.decode(); } catch (error) { return 0; }
  const width = preview.naturalWidth, height = preview.naturalHeight;
  const turned = regions.orientation >= 5;
  const scale = width / (turned ? regions.height : regions.width);
  const boxes = regions.rectangles.map((r) => upright(regions.orientation, regions.width, regions.height, r)
    .map((v) => v * scale));
  const layer = (paint) => {
    const canvas = Object.assign(document.createElement("canvas"), {width, height});
    paint(canvas.getContext("2d"));
    return canvas;
  };
  const line = Math.max(2, Math.round(width / 400));
  const dim = layer((c) => {
    c.fillStyle = "rgba(0, 0, 0, 0.55)";
    c.fillRect(0, 0, width, height);
    for (const [x, y, w, h] of boxes) c.clearRect(x, y, w, h);
  });
  // Each box grown by the line's width, then every box cleared: what is left is the union's edge.
  const edge = layer((c) => {
    c.fillStyle = "#ffd400";
    for (const [x, y, w, h] of boxes) c.fillRect(x - line, y - line, w + 2 * line, h + 2 * line);
    for (const [x, y, w, h] of boxes) c.clearRect(x, y, w, h);
  });
  const canvas = document.getElementById("changes-canvas");
  Object.assign(canvas, {width, height});
  const context = canvas.getContext("2d");
  context.drawImage(preview, 0, 0, width, height);
  context.drawImage(dim, 0, 0);
  context.drawImage(edge, 0, 0);
  figure.hidden = false;
  preview.hidden = true;
  return boxes.length;
}

function show(answer) {
  const invisible = answer.invisible || {};
  if (answer.state === "unsigned" && invisible.manifest_file) {
    say("copy", "This copy carries no credentials, but its invisible mark names a signed original: "
      + invisible.manifest_file + ". Check that file.");
  } else if (answer.state === "unreadable") {
    say("unreadable", answer.reason);
  } else {
    say(answer.state);
  }
  const facts = document.getElementById("facts");
  facts.replaceChildren();
  fact(facts, "File", answer.file);
  fact(facts, "Signed by", answer.signer);
  fact(facts, "Time-stamped", answer.signed && answer.time_stamp
    ? answer.signed + " (by a time-stamp authority, not the signer's clock)" : answer.signed);
  const place = answer.location;
  if (place) {
    fact(facts, "Place", [place.latlon, place.place].filter(Boolean).join(" · ")
      + (place.from === "manifest" ? " (as its credentials say)" : " (from the photo's own GPS tags)"));
  }
  fact(facts, "Proof code", answer.proof);
  fact(facts, "Why", answer.reason);
  fact(facts, "Manifest at", answer.remote_url);
  const failures = (answer.failures || []).filter((code) => !(answer.state === "valid" && code.endsWith(".untrusted")));
  fact(facts, "What fails", failures.join(", "));
  const outside = answer.outside_marks;
  if (outside) {
    fact(facts, "Outside the marks", outside.checked
      ? (outside.parents_pixels ? "the parent's pixels" : "not the parent's pixels") + " ("
        + outside.changed_blocks + " of " + outside.total_blocks + " blocks changed)"
      : outside.changed_blocks + " of " + outside.total_blocks + " blocks changed, as recorded");
  }
  if (invisible.payload) fact(facts, "Invisible mark", invisible.payload);
  if (invisible.skipped) fact(facts, "Invisible mark", invisible.skipped);
  items("actions", answer.actions || []);
  items("chain", (answer.chain || []).map((step, index) => (index === 0 ? "This file: " : "From: ")
    + [step.title, step.generator, step.signer && "signed by " + step.signer].filter(Boolean).join(", ")));
  document.getElementById("json").textContent = JSON.stringify(answer, null, 2);
  return drawChanges(answer.outside_marks && answer.outside_marks.changed_regions);
}

async function check(file) {
  document.getElementById("result").hidden = false;
  document.getElementById("changes").hidden = true;
  document.body.dataset.outlined = 0;
  say("checking", "Checking " + file.name + "…");
  const preview = document.getElementById("preview");
  preview.hidden = !file.type.startsWith("image/");
  // The last file's picture is let go: a page checking many files keeps one in memory.
  if (preview.src.startsWith("blob:")) URL.revokeObjectURL(preview.src);
  if (!preview.hidden) preview.src = URL.createObjectURL(file);
  try {
    const response = await fetch("/api/verify?name=" + encodeURIComponent(file.name), {method: "POST", body: file});
    const type = response.headers.get("Content-Type") || "";
    if (!type.startsWith("application/json")) throw new Error((await response.text()).trim());
    document.body.dataset.outlined = await show(await response.json());
  } catch (error) {
    say("unreadable", "The check failed: " + error.message);
  }
  document.body.dataset.checked = file.name;
}

async function find(code) {
  document.getElementById("result").hidden = false;
  document.getElementById("preview").hidden = true;
  say("checking", "Looking for the photo with the code " + code + "…");
  try {
    const response = await fetch("/api/verify?code=" + encodeURIComponent(code));
    const answer = await response.json();
    document.getElementById("changes").hidden = true;
    if (answer.error) say("unreadable", answer.error); else show(answer);
  } catch (error) {
    say("unreadable", "The search failed: " + error.message);
  }
  document.body.dataset.checked = code;
}

document.getElementById("code-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const code = document.getElementById("code").value.trim();
  if (code) find(code);
});

const drop = document.getElementById("drop"), input = document.getElementById("file");
input.addEventListener("change", () => { if (input.files.length) check(input.files[0]); });
for (const name of ["dragenter", "dragover"]) {
  drop.addEventListener(name, (event) => { event.preventDefault(); drop.classList.add("over"); });
}
for (const name of ["dragleave", "drop"]) drop.addEventListener(name, () => drop.classList.remove("over"));
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  if (event.dataTransfer.files.length) check(event.dataTransfer.files[0]);
});
