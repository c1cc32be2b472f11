// camstamp camera: the preview over WebRTC (docs/camera.md, "The preview"). The page offers to
// receive video, POSTs its offer to /api/webrtc (WHEP's shape) and plays the answer's H.264 in
// <video id="live">: one encode on the camera for every viewer, a fraction of MJPEG's bits, no
// TCP backlog. No STUN or TURN server is asked: the camera is on this network. Where WebRTC
// cannot start or drops, the MJPEG preview (<img id="preview">) takes over; ?preview=mjpeg asks
// for it from the start.
"use strict";

const webRTCPreview = (() => {
  let connection = null, resource = null, active = false;

  function gathered(peer, ms) {
    if (peer.iceGatheringState === "complete") return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      peer.addEventListener("icegatheringstatechange", () => {
        if (peer.iceGatheringState === "complete") { clearTimeout(timer); resolve(); }
      });
    });
  }

  function firstPicture(video, ms) {
    return new Promise((resolve, reject) => {
      if (video.videoWidth) { resolve(); return; }
      const timer = setTimeout(() => reject(new Error("no picture over WebRTC")), ms);
      video.addEventListener("loadeddata", () => { clearTimeout(timer); resolve(); }, { once: true });
    });
  }

  function leave() {
    if (resource) fetch(resource, { method: "DELETE", keepalive: true }).catch(() => {});
    resource = null;
    if (connection) connection.close();
    connection = null;
  }

  // Back to the MJPEG preview (the camera stays the same; only the way it reaches the page).
  function fallBack() {
    leave();
    active = false;
    document.body.dataset.preview = "mjpeg";
    $("live").hidden = true;
    $("preview").hidden = false;
    $("preview").src = "stream.mjpg?" + Date.now();
  }

  async function start() {
    if (!window.RTCPeerConnection || new URLSearchParams(location.search).get("preview") === "mjpeg") return;
    const video = $("live");
    try {
      connection = new RTCPeerConnection();
      connection.addTransceiver("video", { direction: "recvonly" });
      connection.ontrack = (event) => { video.srcObject = new MediaStream([event.track]); };
      await connection.setLocalDescription(await connection.createOffer());
      await gathered(connection, 2000);
      const response = await fetch("api/webrtc", {
        method: "POST", headers: { "Content-Type": "application/sdp" }, body: connection.localDescription.sdp,
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(text.trim() || response.statusText);
      resource = response.headers.get("Location");
      await connection.setRemoteDescription({ type: "answer", sdp: text });
      video.play().catch(() => {});  // muted: every browser lets it play by itself
      await firstPicture(video, 8000);
    } catch (error) {
      console.warn("camstamp: WebRTC preview unavailable, using MJPEG:", error.message);
      fallBack();
      return;
    }
    active = true;
    document.body.dataset.preview = "webrtc";
    video.hidden = false;
    $("preview").hidden = true;
    $("preview").removeAttribute("src");  // the MJPEG stream is closed: its bits are not needed
    placeMarks();
    connection.addEventListener("connectionstatechange", () => {
      if (["failed", "closed"].includes(connection && connection.connectionState)) fallBack();
    });
  }

  window.addEventListener("pagehide", leave);
  return {
    start,
    // What shows the preview now, and the picture's own size.
    shown() {
      if (active) { const video = $("live"); return { box: video, width: video.videoWidth, height: video.videoHeight }; }
      const img = $("preview");
      return { box: img, width: img.naturalWidth, height: img.naturalHeight };
    },
    get active() { return active; },
    // The received video's counts (for the tests and the bench): frames decoded, bytes.
    async stats() {
      if (!connection) return null;
      let found = null;
      (await connection.getStats()).forEach((report) => {
        if (report.type === "inbound-rtp" && report.kind === "video") {
          found = { framesDecoded: report.framesDecoded, bytesReceived: report.bytesReceived };
        }
      });
      return found;
    },
  };
})();
