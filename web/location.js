// camstamp camera: the browser's position for {lat}, {latlon}, {place}... and the photos' GPS tags.
// Sent only after the user turns it on (and the browser asks them), as
// POST /api/settings {"location": {lat, lon, accuracy, alt}}; the server uses it while gpsd has no
// fix. Browsers give a position only to a secure context: localhost, or HTTPS (--tls-cert).
"use strict";
(function () {
  const button = document.getElementById("location");
  if (!button) return;
  let watch = null;
  let last = null;

  function show(text, pressed) {
    button.textContent = text;
    button.setAttribute("aria-pressed", pressed ? "true" : "false");
  }

  if (!("geolocation" in navigator) || !window.isSecureContext) {
    button.disabled = true;
    button.title = "this browser gives a position only over HTTPS (camstamp camera --tls-cert) or on localhost";
    return;
  }

  async function send(location) {
    const response = await fetch("/api/settings", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ location }),
    });
    if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
  }

  // Not every report: a phone gives one a second; a new one goes when it moved or 10 s passed.
  function worthSending(position) {
    if (!last) return true;
    const east = (position.lon - last.lon) * Math.cos(position.lat * Math.PI / 180);
    const moved = Math.hypot(position.lat - last.lat, east);
    return moved * 111320 > 10 || Date.now() - last.at > 10000;
  }

  function take(reading) {
    const c = reading.coords;
    const location = { lat: c.latitude, lon: c.longitude, accuracy: c.accuracy };
    if (c.altitude !== null && Number.isFinite(c.altitude)) location.alt = c.altitude;
    show("Location: ±" + Math.round(c.accuracy) + " m", true);
    if (!worthSending(location)) return;
    last = { lat: location.lat, lon: location.lon, at: Date.now() };
    send(location).catch((error) => show("Location: " + error.message, true));
  }

  function stop() {
    if (watch !== null) navigator.geolocation.clearWatch(watch);
    watch = null;
    last = null;
    show("Location", false);
    send(null).catch(() => {});
  }

  button.addEventListener("click", () => {
    if (watch !== null) return stop();
    show("Location: asking…", true);
    watch = navigator.geolocation.watchPosition(take, (error) => {
      if (watch !== null) navigator.geolocation.clearWatch(watch);
      watch = null;
      show("Location: " + (error.code === 1 ? "not allowed" : "unavailable"), false);
    }, { enableHighAccuracy: true, maximumAge: 5000, timeout: 30000 });
  });
})();
