// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

/// What a decoded video holds.
package struct DecodedVideo {
    package var frames = 0
    /// End of the last frame, in seconds.
    package var duration = 0.0
    /// Caps fields of the H.264 stream (chroma-format, profile ...).
    package var h264: [String: String] = [:]
    /// The frame at `keep`, for pixel checks.
    package var kept: VideoFrame?
}

/// Decodes every frame of an MP4/MKV file, or of an RTP stream on `port` (bounded by `limit` frames
/// and `timeout`).
package func decodeVideo(
    file: URL? = nil, rtpPort: Int? = nil, keep: Int = 30, limit: Int = .max,
    timeout: Duration = .seconds(20), started: (() throws -> Void)? = nil
) throws -> DecodedVideo {
    let text: String
    if let file {
        text = try PipelineTemplate(
            "filesrc location={location} ! parsebin ! h264parse name=parse ! avdec_h264 ! videoconvert ! video/x-raw,format=I420 ! appsink name=frames"
        )
        .render(["location": .quoted(file.path)])
    } else {
        text = try PipelineTemplate(
            "udpsrc address=127.0.0.1 port={port} caps=\"application/x-rtp,media=video,clock-rate=90000,encoding-name=H264,payload=96\" ! rtph264depay ! h264parse name=parse ! avdec_h264 ! videoconvert ! video/x-raw,format=I420 ! appsink name=frames"
        )
        .render(["port": .integer(rtpPort!)])
    }
    let source = try FrameSource(pipeline: Pipeline(text), live: false, maxBuffers: 4)
    try source.start(wait: file != nil)
    defer { source.stop() }
    try started?()
    var video = DecodedVideo()
    let deadline = ContinuousClock.now + timeout
    var first: UInt64?
    while video.frames < limit && ContinuousClock.now < deadline {
        guard case .frame(let frame) = try source.pull(timeout: .milliseconds(500)) else {
            if file != nil { break } else { continue }
        }
        if video.frames == 0, let caps = try source.pipeline.element(named: "parse").currentCaps(pad: "src") {
            video.h264 = caps.fields
            video.h264["media"] = caps.name
        }
        let pts = frame.presentationTime ?? 0
        first = first ?? pts
        video.duration = Double(pts - min(first!, pts)) / 1e9 + 1 / (frame.framesPerSecond ?? 30)
        if video.frames == keep { video.kept = frame }
        video.frames += 1
    }
    return video
}

/// The mark of `--text` on the solid camera: changed pixels near the bottom-right corner only.
package func expectMarkBottomRight(_ frame: VideoFrame?, sourceLocation: SourceLocation = #_sourceLocation) throws {
    guard let frame else {
        Issue.record("no frame to check", sourceLocation: sourceLocation)
        return
    }
    let luma = try lumaPlane(frame)
    guard let bounds = changedBounds(luma, background: luma[0][0], tolerance: 24) else {
        Issue.record("no mark in the decoded frame", sourceLocation: sourceLocation)
        return
    }
    #expect(
        bounds.minX > frame.width / 2 && bounds.minY > frame.height * 3 / 4,
        "mark spreads to (\(bounds.minX),\(bounds.minY))", sourceLocation: sourceLocation)
    #expect(
        bounds.maxX > frame.width * 9 / 10 && bounds.maxY > frame.height * 9 / 10,
        "mark ends at (\(bounds.maxX),\(bounds.maxY))", sourceLocation: sourceLocation)
}
