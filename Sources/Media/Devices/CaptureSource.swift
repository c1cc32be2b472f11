// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Where frames come from.
public enum CaptureSource: Sendable, Equatable {
    /// The built-in test camera: a moving pattern, live, 30 fps.
    case test
    /// A V4L2 camera by device path (`/dev/video0`).
    case v4l2(device: String)
    /// A video file played as if it were a camera (in real time).
    case file(URL)

    /// The source part of the capture template. A camera is asked for `format`'s size and rate
    /// itself, raw or MJPEG, so it delivers them natively instead of being scaled from whatever
    /// mode it picks on its own.
    func fragment(for format: CaptureFormat) -> LaunchFragment {
        switch self {
        case .test:
            // Colour bars scrolling sideways: live, recognisable, and with no random noise, so the same
            // frame number always has the same pixels.
            LaunchFragment("videotestsrc name=camera is-live=true pattern=smpte75 horizontal-speed=2")
        case .v4l2(let device):
            // decodebin takes raw and MJPEG cameras alike.
            LaunchFragment(
                ([LaunchFragment(element: "v4l2src", ["name": "camera", "device": device]).text]
                    + [format.cameraModes.map { LaunchFragment(element: "capsfilter", ["caps": $0]).text }].compactMap {
                        $0
                    }
                    + ["decodebin"]).joined(separator: " ! "))
        case .file(let url):
            // A phone's clip with a rotation tag is turned upright as a batch turns it (`clip.pipeline`'s
            // {orient}); one without keeps no videoflip, which would copy every frame for nothing.
            LaunchFragment(
                LaunchFragment(element: "filesrc", ["name": "camera", "location": url.path]).text + " ! decodebin"
                    + ((try? ClipStreams.probe(url))?.isTurned == true ? " ! videoflip video-direction=auto" : ""))
        }
    }
}

/// What the capture pipeline delivers: always I420 (the formats' common ground: JPEG and H.264
/// take it without conversion); size and rate when asked for, otherwise the source's own.
public struct CaptureFormat: Sendable, Equatable {
    public var width: Int?
    public var height: Int?
    public var fps: Int?
    public init(width: Int? = nil, height: Int? = nil, fps: Int? = nil) {
        self.width = width
        self.height = height
        self.fps = fps
    }

    /// The camera modes that give this size and rate, raw or MJPEG; nil when nothing was asked.
    var cameraModes: String? {
        var fields = ""
        if let width, let height { fields += ",width=\(width),height=\(height)" }
        if let fps { fields += ",framerate=\(fps)/1" }
        return fields.isEmpty ? nil : "video/x-raw\(fields);image/jpeg\(fields)"
    }

    var caps: LaunchFragment {
        var caps = "video/x-raw,format=I420"
        if let width, let height { caps += ",width=\(width),height=\(height),pixel-aspect-ratio=1/1" }
        if let fps { caps += ",framerate=\(fps)/1" }
        return LaunchFragment(caps)
    }

    /// The template's `{rate}`: frames that come faster than an asked rate are dropped; with none
    /// asked, every frame the source gives is kept (see capture.pipeline).
    var rate: LaunchFragment {
        LaunchFragment(fps == nil ? "identity" : "videorate drop-only=true")
    }
}

extension CaptureSource {
    /// The capture pipeline's launch text: `template` filled in for this source and `format`.
    public func capture(format: CaptureFormat, template: PipelineTemplate) throws(MediaError) -> String {
        var format = format
        // The test camera has no size of its own: give it a webcam-like default.
        if self == .test {
            if format.width == nil {
                format.width = 1280
                format.height = 720
            }
            if format.fps == nil { format.fps = 30 }
        }
        return try template.render([
            "source": .fragment(fragment(for: format)), "caps": .fragment(format.caps),
            "rate": .fragment(format.rate),
        ])
    }
}

extension FrameSource {
    /// Builds (but does not start) the capture pipeline from `template`.
    public static func capture(
        _ source: CaptureSource, format: CaptureFormat,
        template: PipelineTemplate
    ) throws(MediaError) -> FrameSource {
        try FrameSource(
            pipeline: Pipeline(source.capture(format: format, template: template)), live: true, exclusiveFrames: true)
    }
}

extension CaptureSource {
    /// The media type of `file` by its content, as GStreamer's typefinders see it (`image/jpeg`,
    /// `video/x-matroska`), for telling a still image or a stray file from a video before it is
    /// played as a camera. Throws when no typefinder recognises it (or it cannot be read).
    public static func mediaType(of file: URL) throws(MediaError) -> String {
        let description = try PipelineTemplate("filesrc location={location} ! typefind name=find ! fakesink")
            .render(["location": .quoted(file.path)])
        let pipeline = try Pipeline(description)
        let find = try pipeline.element(named: "find")
        defer { pipeline.stop() }
        // The sink prerolls once typefind has settled the type and passed the first buffer on.
        try pipeline.setState(.paused, timeout: .seconds(10))
        guard let caps = find.string("caps"), let name = caps.split(separator: ",").first, !name.isEmpty else {
            throw .unknownMediaType
        }
        return String(name)
    }
}
