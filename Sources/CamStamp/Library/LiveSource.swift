// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// Frames from a live source, as `PixelBuffer`s a program marks and keeps: the camera, the
/// built-in test camera or a video file played as a camera, captured as `shoot` and `stream`
/// capture them (same `--source` rules, same capture pipeline).
///
/// A live source drops frames rather than queue them when the program is slower than it, so
/// `next(timeout:cancellation:)` always returns a recent frame. Not thread-safe: pull from one
/// thread.
///
/// ```swift
/// let camera = try LiveSource(source: .test, size: FrameSize(width: 640, height: 360))
/// while var frame = try camera.next() {
///     try stamper.mark(&frame, frameNumber: number, fps: 30)
/// }
/// ```
public final class LiveSource {
    private let capture: Capture
    private var started = false
    private var stopped = false

    /// Opens `source` (nothing runs until the first `next`). `size` and `fps` are asked of the
    /// source as `--size` and `--fps` are; nil takes what it gives.
    ///
    /// - Throws: `CamStampError` of kind `.usage` for a source that does not exist (with the hint
    ///   the command line gives), `.failure` for a capture pipeline that cannot be built.
    public init(
        source: SourceSpec = .auto, size: FrameSize? = nil, fps: Int? = nil,
        resources: Resources? = Resources.locate()
    ) throws(CamStampError) {
        capture = try Capture(spec: source, size: size, fps: fps, pipeline: nil, resources: resources)
    }

    deinit { stop() }

    /// The next frame, waiting at most `timeout` for one; nil once the source has ended (a
    /// video file played to its end).
    ///
    /// - Throws: `CamStampError` of kind `.interrupted` once `cancellation` is cancelled,
    ///   `.failure` when the camera fails or gives no frame within `timeout`, or gives one in a
    ///   format `PixelBuffer` does not hold.
    public func next(
        timeout: Duration = .seconds(10), cancellation: CancellationToken? = nil
    ) throws(CamStampError) -> PixelBuffer? {
        if stopped { return nil }
        if !started {
            started = true
            try capture.start()
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            if cancellation?.isCancelled == true { throw .interrupted }
            switch try capture.pull() {
            case .frame(let frame): return try Self.buffer(from: frame)
            case .endOfStream:
                stop()
                return nil
            case .timeout:
                if ContinuousClock.now >= deadline {
                    throw .failure("capture: no frame from the source within \(timeout)")
                }
            }
        }
    }

    /// Stops the capture and lets go of the camera (also done when the source is released).
    public func stop() {
        guard !stopped else { return }
        stopped = true
        if started { capture.stop() }
    }

    /// The frame's planes copied out of GStreamer's memory, each at its own stride.
    private static func buffer(from frame: VideoFrame) throws(CamStampError) -> PixelBuffer {
        guard let media = frame.format, let format = PixelBuffer.Format(rawValue: media.rawValue) else {
            throw .failure("capture: frames in \(frame.format?.rawValue ?? "an unknown format") cannot be held")
        }
        let sizes = format.planeSizes(width: frame.width, height: frame.height)
        do {
            let planes = try frame.withMapped { mapped in
                sizes.indices.map { index in
                    let stride = mapped.stride(index)
                    let plane = mapped.plane(index)
                    return PixelBuffer.Plane(bytes: [UInt8](plane.prefix(sizes[index].rows * stride)), stride: stride)
                }
            }
            return try PixelBuffer(format: format, width: frame.width, height: frame.height, planes: planes)
        } catch let error as CamStampError {
            throw error
        } catch {
            throw .failure("capture: \(error)")
        }
    }
}
