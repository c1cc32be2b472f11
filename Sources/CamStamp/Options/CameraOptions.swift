// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// Where `camera --web` listens: an IP address and a port (0: any free port, printed).
public struct WebAddress: Sendable, Equatable {
    /// An IPv4 or IPv6 address (`localhost` becomes 127.0.0.1).
    public var host: String
    /// 0 picks any free port.
    public var port: UInt16
    /// `host`:`port` as given, unchecked.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// 127.0.0.1:8080: this machine only, no token needed.
    public static let `default` = WebAddress(host: "127.0.0.1", port: 8080)

    /// Whether only this machine can connect (127.0.0.0/8 or ::1): then no token is needed.
    public var isLoopback: Bool {
        host.hasPrefix("127.") || host == "::1"
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

}

/// Options of `camstamp camera`: the watermark camera with a live viewfinder.
public struct CameraOptions: Sendable, Equatable {
    /// `--source`: the camera, the test camera or a video file.
    public var source: SourceSpec
    /// `--preset`: names or JSON paths, stacked in order.
    public var presets: [String]
    /// `--text`: a quick mark in the default style.
    public var text: String?
    /// `--var KEY=VALUE`, in command-line order.
    public var variables: [VariableAssignment]
    /// The folder photos go to; nil means the current folder.
    public var output: URL?
    /// Where the web viewfinder listens; nil when only `--window` was asked for.
    public var web: WebAddress?
    /// `--window`: a native X11 viewfinder.
    public var window: Bool
    /// Required on every request when given, and always on a non-loopback address (random then).
    public var token: String?
    /// `--size`: the frame size asked of the camera.
    public var size: FrameSize?
    /// `--fps`: the frame rate asked of the camera.
    public var fps: Int?
    /// JPEG quality of the photos.
    public var quality: Int
    /// `--mirror-photos`, kept for scripts: photos are mirrored whenever Mirror is on, since the
    /// preview is the photo.
    public var mirrorPhotos: Bool
    /// `--sign`: every photo signed with Content Credentials (`c2pa.created`); nil signs nothing.
    public var signing: SigningOptions?
    /// `--invisible`: every photo gets an invisible mark of a new instance id, as `shoot`'s.
    public var invisible = false
    /// `--pipeline`: a capture template of the user's own.
    public var pipeline: URL?
    /// `--gps` (and `--strip-gps` for photos): where the position comes from.
    public var location = LocationOptions()
    /// `--tls-cert`: the page over HTTPS with this PEM certificate (chain), with `tlsKey`.
    public var tlsCertificate: URL?
    /// `--tls-key`: the PEM private key of `tlsCertificate`.
    public var tlsKey: URL?

    /// The options, with the command line's defaults.
    public init(
        source: SourceSpec = .auto, presets: [String] = [], text: String? = nil,
        variables: [VariableAssignment] = [], output: URL? = nil, web: WebAddress? = .default,
        window: Bool = false, token: String? = nil, size: FrameSize? = nil, fps: Int? = nil,
        quality: Int = ShootOptions.defaultQuality, mirrorPhotos: Bool = false, pipeline: URL? = nil
    ) {
        self.source = source
        self.presets = presets
        self.text = text
        self.variables = variables
        self.output = output
        self.web = web
        self.window = window
        self.token = token
        self.size = size
        self.fps = fps
        self.quality = quality
        self.mirrorPhotos = mirrorPhotos
        self.pipeline = pipeline
    }
}

/// Options of `camstamp devices`.
public struct DevicesOptions: Sendable, Equatable {
    /// Print the cameras as JSON (`--json`).
    public var json: Bool
    /// Options for `camstamp devices`.
    public init(json: Bool = false) { self.json = json }
}
