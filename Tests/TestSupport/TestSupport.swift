// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// What the suites share: where the built binary is, scratch folders, and the pixel checks they
// make on decoded output (programs are run by Processes.swift). One copy here, so the suites
// cannot drift apart.
import Foundation
import Media

/// The package's root folder (this file is Tests/TestSupport/TestSupport.swift).
package let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The built binary: `CAMSTAMP_BIN` (set by `make test`) or the debug build beside the package.
package let camstampBinary: URL = {
    if let path = ProcessInfo.processInfo.environment["CAMSTAMP_BIN"] { return URL(fileURLWithPath: path) }
    return packageRoot.appendingPathComponent(".build/debug/camstamp")
}()

/// A fresh folder under the system temp folder, named after the test; the caller removes it.
package func temporaryFolder(_ name: String = #function) throws -> URL {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "camstamp-test-\(safe)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Decodes an image file to I420 (or `format`) and returns the frame.
package func decodeImage(_ file: URL, format: PixelFormat = .i420) throws -> VideoFrame {
    try FrameSource.firstFrame(of: file, format: format)
}

/// The luma plane as rows of bytes.
package func lumaPlane(_ frame: VideoFrame) throws -> [[UInt8]] {
    try frame.withMapped { mapped in
        let plane = mapped.plane(0), stride = mapped.stride(0)
        return (0..<frame.height).map { y in Array(plane[(y * stride)..<(y * stride + frame.width)]) }
    }
}

/// The smallest rectangle holding every pixel whose luma differs from `background` by more than
/// `tolerance`, as (minX, minY, maxX, maxY) inclusive; nil when nothing differs.
package func changedBounds(
    _ luma: [[UInt8]], background: UInt8, tolerance: Int
) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
    var bounds: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
    for (y, row) in luma.enumerated() {
        for (x, value) in row.enumerated() where abs(Int(value) - Int(background)) > tolerance {
            if let b = bounds {
                bounds = (min(b.minX, x), min(b.minY, y), max(b.maxX, x), max(b.maxY, y))
            } else {
                bounds = (x, y, x, y)
            }
        }
    }
    return bounds
}

/// A capture template with a flat test camera of one colour, so every changed pixel belongs to the mark.
package func writeSolidCameraTemplate(in folder: URL, argb: String = "0xff404040") throws -> URL {
    let url = folder.appendingPathComponent("solid-\(argb).pipeline")
    try """
    # A flat test camera of one colour, for pixel checks.
    videotestsrc is-live=true pattern=solid-color foreground-color=\(argb) ! videoconvert ! videoscale ! {caps} ! appsink name=frames
    """.write(to: url, atomically: true, encoding: .utf8)
    return url
}

/// A fixture that GStreamer could not write.
package struct FixtureFailure: Error, CustomStringConvertible {
    package let description: String
}

/// Runs `launch` (its `{location}` set to `file`) to its end: a fixture file made by GStreamer.
package func writeWithGStreamer(_ launch: String, to file: URL, timeout: Duration = .seconds(20)) throws {
    let pipeline = try Pipeline(PipelineTemplate(launch).render(["location": .quoted(file.path)]))
    defer { pipeline.stop() }
    // The caller's timeout covers the preroll too: a 1080p x264 medium fixture takes more than
    // setState's 10 s to let out its first picture on a loaded 2-core machine.
    try pipeline.setState(.playing, timeout: timeout)
    let ending = pipeline.waitForEndOrError(timeout: timeout)
    guard ending == .endOfStream else {
        throw FixtureFailure(
            description: "\(file.lastPathComponent) not written: \(ending.map { "\($0)" } ?? "timed out") (\(launch))")
    }
}
