// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// invisible-watermark (PyPI), the referee of camstamp's invisible mark, run through
// Tests/WatermarkTests/Scripts/referee.py in the Python that `make python-deps` sets up.
import Foundation
import Testing

/// The Python with invisible-watermark, numpy, PyWavelets and OpenCV (`make python-deps`), or
/// CAMSTAMP_PYTHON's.
package let refereePython: String =
    ProcessInfo.processInfo.environment["CAMSTAMP_PYTHON"]
    ?? packageRoot.appendingPathComponent(".build/python/bin/python3").path

/// Whether that Python is there.
package let refereeInstalled = FileManager.default.isExecutableFile(atPath: refereePython)

extension Trait where Self == ConditionTrait {
    /// The test runs invisible-watermark: without `make python-deps` it cannot.
    package static var needsMarkReferee: Self {
        .enabled(if: refereeInstalled, "needs invisible-watermark in \(refereePython): run make python-deps")
    }
}

/// Runs referee.py with `arguments` (see its usage) and gives what it printed, trimmed.
@discardableResult
package func markReferee(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let script = packageRoot.appendingPathComponent("Tests/WatermarkTests/Scripts/referee.py").path
    let output = try tool(refereePython, [script] + arguments, sourceLocation: sourceLocation)
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A clip (Motion JPEG in Matroska, 1600×1200, `frames` at 5 a second) of a generated photo, in
/// `folder`: for the invisible mark, a camera's view with the blocks a real photo has, where the
/// test pattern's flat bars have few (and clip at 0).
package func photoClip(in folder: URL, frames: Int = 5) throws -> URL {
    let ppm = folder.appendingPathComponent("scene.ppm"), jpeg = folder.appendingPathComponent("scene.jpg")
    try markReferee(["photo", "7", "1600", "1200", ppm.path])
    try tool("/usr/bin/cjpeg", ["-quality", "95", "-outfile", jpeg.path, ppm.path])
    let clip = folder.appendingPathComponent("scene.mkv")
    try tool(
        "gst-launch-1.0",
        [
            "-q", "multifilesrc", "location=\(jpeg.path)", "num-buffers=\(frames)", "caps=image/jpeg,framerate=5/1",
            "!", "jpegparse", "!", "matroskamux", "!", "filesink", "location=\(clip.path)",
        ])
    return clip
}

/// An 8-bit RGB picture as binary PPM (P6) holds it, the referee's exchange format.
package struct RGBPicture: Equatable {
    package var width: Int
    package var height: Int
    /// Rows of red, green, blue, no padding.
    package var pixels: [UInt8]

    /// The picture in `file`, a P6 PPM with a maximum of 255.
    package init(ppm file: URL) throws {
        let data = [UInt8](try Data(contentsOf: file))
        var fields: [String] = [], index = 0
        while fields.count < 4, index < data.count {
            while index < data.count, data[index] == 0x20 || data[index] == 0x0A || data[index] == 0x0D { index += 1 }
            let start = index
            while index < data.count, data[index] != 0x20, data[index] != 0x0A, data[index] != 0x0D { index += 1 }
            fields.append(String(decoding: data[start..<index], as: UTF8.self))
        }
        guard fields.count == 4, fields[0] == "P6", fields[3] == "255", let width = Int(fields[1]),
            let height = Int(fields[2]), data.count - index - 1 == width * height * 3
        else { throw ToolFailure("\(file.path) is not an 8-bit P6 PPM") }
        self.width = width
        self.height = height
        pixels = Array(data[(index + 1)...])
    }

    /// Writes the picture to `file` as a P6 PPM.
    package func write(ppm file: URL) throws {
        try (Data("P6\n\(width) \(height)\n255\n".utf8) + Data(pixels)).write(to: file)
    }

    /// The peak signal-to-noise ratio against `other`, in dB, over all three channels.
    package func psnr(against other: RGBPicture) -> Double {
        let squares = zip(pixels, other.pixels).reduce(0.0) {
            let difference = Double($1.0) - Double($1.1)
            return $0 + difference * difference
        }
        return 10 * log10(255 * 255 / (squares / Double(pixels.count)))
    }
}
