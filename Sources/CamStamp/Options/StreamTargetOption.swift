// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Where `stream --to` sends the stamped video.
public enum StreamTarget: Sendable, Equatable {
    /// A file, `.mp4` or `.mkv`.
    case file(URL, container: VideoContainer)
    /// H.264 over RTP/UDP.
    case rtp(host: String, port: UInt16)
    /// FLV (H.264 + AAC) published to an RTMP server: `rtmp://host[:port]/app/key`, kept as written.
    case rtmp(url: String)
    /// MPEG-TS over SRT: a caller to `host:port`, or (host nil) a listener on `port`.
    case srt(host: String?, port: UInt16, listener: Bool)
    /// HLS segments (MPEG-TS, 2 s) and a playlist written into a folder.
    case hls(folder: URL)
    /// `--serve`: camstamp's own RTSP server, one encode for every viewer.
    case serve(RTSPServe)
    /// WebRTC to a WHIP endpoint (RFC 9725): `whip://host[:port]/path` over HTTP, `whips://` over
    /// HTTPS, kept as written.
    case whip(url: String)
    /// A V4L2 output device (`v4l2:/dev/videoN`, a v4l2loopback device): the marked pictures,
    /// raw, for video-call apps to open as a camera.
    case v4l2(device: String)

}

/// `stream --serve rtsp://ADDRESS:PORT/PATH`: camstamp's own RTSP server.
public struct RTSPServe: Sendable, Equatable {
    /// The address to listen on (`0.0.0.0` for every interface).
    public var address: String
    /// The TCP port (8554 is RTSP's usual).
    public var port: UInt16
    /// The mount point, with its leading `/`.
    public var path: String

    /// Listens on `address`:`port` at `path`, unchecked.
    public init(address: String, port: UInt16, path: String) {
        self.address = address
        self.port = port
        self.path = path
    }

    /// The URL viewers open.
    public var description: String { "rtsp://\(address.contains(":") ? "[\(address)]" : address):\(port)\(path)" }
}

/// `stream --audio`: where the sound comes from.
public enum AudioChoice: Sendable, Equatable {
    /// The test source's tone; a camera's microphone (PulseAudio, else ALSA) when there is one.
    case auto
    /// No sound.
    case none
    /// A PulseAudio source name, or an ALSA device (`hw:1,0`, `plughw:…`, `default`).
    case device(String)
}
