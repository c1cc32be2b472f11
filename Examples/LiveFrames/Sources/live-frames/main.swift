// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// live-frames OUTPUT.i420 [COUNT] [--camera]: takes COUNT frames (default 30) from the built-in
// test camera (or the first camera with --camera), marks each with a clock and its number, and
// appends them to OUTPUT as raw I420 (`ffplay -f rawvideo -pixel_format yuv420p -video_size
// 640x360 OUTPUT` plays it).
import CamStamp
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let output = URL(fileURLWithPath: arguments.first ?? "frames.i420")
let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 30
let source: SourceSpec = arguments.contains("--camera") ? .auto : .test

do {
    // A mark built in code: the Presets model comes with `import CamStamp`.
    var clock = Mark(content: .text("{date:%H:%M:%S} · frame {frame}"))
    clock.anchor = .bottomLeft
    let stamper = try Stamper(presets: [.preset(Preset(name: "clock", marks: [clock]))])
    let camera = try LiveSource(source: source, size: FrameSize(width: 640, height: 360), fps: 30)
    defer { camera.stop() }

    guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
        throw CamStampError.failure("cannot write \(output.path)")
    }
    let file = try FileHandle(forWritingTo: output)
    defer { try? file.close() }
    var marked = 0
    for number in 1...count {
        guard var frame = try camera.next() else { break }  // a file source can end
        let before = frame.planes[0].bytes
        try stamper.mark(&frame, frameNumber: number, fps: 30)
        let changed = zip(before, frame.planes[0].bytes).filter { $0 != $1 }.count
        guard changed > 0 else { throw CamStampError.failure("frame \(number) was not marked") }
        // Rows without their padding, so the file is plain I420.
        for (plane, size) in zip(frame.planes, frame.format.planeSizes(width: frame.width, height: frame.height)) {
            for row in 0..<size.rows {
                try file.write(contentsOf: plane.bytes[(row * plane.stride)..<(row * plane.stride + size.rowBytes)])
            }
        }
        marked += 1
    }
    print("wrote \(output.path): \(marked) marked frames, 640×360 \(PixelBuffer.Format.i420.rawValue)")
} catch {
    FileHandle.standardError.write(Data("live-frames: \(error)\n".utf8))
    exit(1)
}
