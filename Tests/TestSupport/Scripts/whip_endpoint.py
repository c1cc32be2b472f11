# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The camstamp authors
"""A WHIP endpoint (RFC 9725) on 127.0.0.1, made of aiortc (PyPI): a WebRTC stack nobody here
wrote, the referee of `camstamp stream --to whip://`. It records what each session receives.

usage: whip_endpoint.py PORT FOLDER [--token T] [--refuse STATUS] [--hang] [--drop-after S]

- POST /whip with an SDP offer: 201 Created, the answer, Location /whip/session/N. The
  session's pictures and sound are recorded to FOLDER/session-N-video.mkv and
  session-N-audio.mkv (re-encoded by aiortc's MediaRecorder), until DELETE, the end, or
  --drop-after.
  The offer and answer are kept as FOLDER/offer-N.sdp and answer-N.sdp.
- DELETE /whip/session/N: the session is closed and its recording finished.
- --token T: a POST without "Authorization: Bearer T" gets 401.
- --refuse STATUS: every POST gets STATUS; --hang: POSTs are never answered.
- --drop-after S: each session is closed by the endpoint S seconds after it was made (the
  far end going away mid-stream), without a DELETE.

FOLDER/events.log gets one line per event (posted, connected, track kind, deleted, dropped,
recorded N), flushed as it happens, for the test to read.
"""
import argparse
import asyncio
import os
import sys
import traceback

from aiortc import RTCPeerConnection, RTCSessionDescription
from aiortc.contrib.media import MediaRecorder


class Endpoint:
    def __init__(self, args):
        self.args = args
        self.sessions = {}
        self.count = 0
        self.log = open(os.path.join(args.folder, "events.log"), "a", buffering=1)

    def event(self, text):
        self.log.write(text + "\n")

    async def handle(self, reader, writer):
        try:
            method, path, headers, body = await read_request(reader)
        except (ValueError, asyncio.IncompleteReadError):
            writer.close()
            return
        try:
            status, extra, answer = await self.route(method, path, headers, body)
        except Exception as error:  # the endpoint says what failed, as a server would
            traceback.print_exc()
            status, extra, answer = 500, [], str(error).encode()
        if status is None:
            return  # --hang: the connection stays open, unanswered
        head = [f"HTTP/1.1 {status} {REASONS.get(status, 'Status')}", f"Content-Length: {len(answer)}",
                "Connection: close"] + extra
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + answer)
        await writer.drain()
        writer.close()

    async def route(self, method, path, headers, body):
        if method == "POST" and path == "/whip":
            if self.args.hang:
                await asyncio.sleep(3600)
                return None, [], b""
            if self.args.refuse:
                return self.args.refuse, [], b"refused by the test"
            if self.args.token and headers.get("authorization") != f"Bearer {self.args.token}":
                return 401, [], b"no or wrong token"
            if headers.get("content-type") != "application/sdp":
                return 415, [], b"not application/sdp"
            self.count += 1
            number = self.count
            answer = await self.open_session(number, body.decode())
            return 201, ["Content-Type: application/sdp", f"Location: /whip/session/{number}"], answer.encode()
        if method == "DELETE" and path.startswith("/whip/session/"):
            number = int(path.rsplit("/", 1)[1])
            if number not in self.sessions:
                return 404, [], b""
            await self.close_session(number, "deleted")
            return 200, [], b""
        return 404, [], b""

    async def open_session(self, number, offer):
        self.event(f"posted {number}")
        with open(os.path.join(self.args.folder, f"offer-{number}.sdp"), "w") as file:
            file.write(offer)
        pc = RTCPeerConnection()
        # A recorder per track: one Matroska file for both lets whichever frame comes first
        # write the header, and a video stream opened before its first frame has the wrong size.
        recorders = []
        self.sessions[number] = (pc, recorders)

        @pc.on("track")
        def on_track(track):
            self.event(f"track {number} {track.kind}")
            recorder = MediaRecorder(os.path.join(self.args.folder, f"session-{number}-{track.kind}.mkv"))
            recorder.addTrack(track)
            recorders.append(recorder)

        @pc.on("connectionstatechange")
        async def on_state():
            self.event(f"state {number} {pc.connectionState}")
            if pc.connectionState == "connected":
                for recorder in recorders:
                    await recorder.start()

        await pc.setRemoteDescription(RTCSessionDescription(sdp=offer, type="offer"))
        await pc.setLocalDescription(await pc.createAnswer())
        if self.args.drop_after:
            asyncio.get_running_loop().call_later(
                self.args.drop_after, lambda: asyncio.ensure_future(self.close_session(number, "dropped")))
        with open(os.path.join(self.args.folder, f"answer-{number}.sdp"), "w") as file:
            file.write(pc.localDescription.sdp)
        return pc.localDescription.sdp

    async def close_session(self, number, why):
        pc, recorders = self.sessions.pop(number, (None, None))
        if pc is None:
            return
        for recorder in recorders:
            await recorder.stop()
        await pc.close()
        self.event(f"{why} {number}")

    async def close_all(self):
        for number in list(self.sessions):
            await self.close_session(number, "ended")


REASONS = {200: "OK", 201: "Created", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
           415: "Unsupported Media Type", 500: "Internal Server Error", 503: "Service Unavailable"}


async def read_request(reader):
    line = (await reader.readline()).decode("latin-1").strip()
    method, path, _ = line.split(" ", 2)
    headers = {}
    while True:
        header = (await reader.readline()).decode("latin-1").strip()
        if not header:
            break
        name, value = header.split(":", 1)
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    if length > 65536:
        raise ValueError("too large")
    body = await reader.readexactly(length) if length else b""
    return method, path, headers, body


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("folder")
    parser.add_argument("--token")
    parser.add_argument("--refuse", type=int)
    parser.add_argument("--hang", action="store_true")
    parser.add_argument("--drop-after", type=float)
    args = parser.parse_args()
    if os.environ.get("WHIP_DEBUG"):
        import logging
        logging.basicConfig(level=logging.DEBUG)
    endpoint = Endpoint(args)
    server = await asyncio.start_server(endpoint.handle, "127.0.0.1", args.port)
    endpoint.event("listening")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    import signal
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    async with server:
        await stop.wait()
        await endpoint.close_all()
    endpoint.event("stopped")


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
