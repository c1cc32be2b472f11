// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// `camstamp-bench invisible [WIDTH HEIGHT ROUNDS]`: the invisible mark's embedding cost on one
// thread, in CPU seconds per megapixel, for a packed RGBx picture and for an I420 one's Cb plane
// (what `batch --invisible` marks), the best of ROUNDS. One JSON line for bench/run.sh.
import Foundation
import Watermark

#if canImport(Glibc)
import Glibc
#endif

func benchInvisible(_ arguments: [String]) {
    let numbers = arguments.compactMap { Int($0) }
    let (width, height, rounds) =
        numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : (4000, 3000, 5)
    let payload = MarkPayload(instanceID: "xmp:iid:camstamp-bench")
    var fields: [String: Any] = ["width": width, "height": height, "rounds": rounds]
    let layouts: [(String, ChromaPlane.Layout, Int, Int)] = [
        ("rgbx", .packed(bytesPerPixel: 4, red: 0, green: 1, blue: 2), width * 4, height),
        ("i420", .cb(subsampling: 2), width / 2, height / 2),
    ]
    for (name, layout, stride, rows) in layouts {
        // Smooth ramps, as a photo's chroma: every block gets its shift worked out.
        var pixels = (0..<stride * rows).map { UInt8(truncatingIfNeeded: ($0 % stride) / 7 + ($0 / stride) / 5 + 40) }
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = seconds(CLOCK_THREAD_CPUTIME_ID)
            pixels.withUnsafeMutableBytes { bytes in
                let plane = ChromaPlane(
                    base: bytes.baseAddress!, stride: stride, width: width, height: height, layout: layout)
                do { try InvisibleMark.embed(payload, into: plane) } catch { fail("\(error)") }
            }
            best = min(best, seconds(CLOCK_THREAD_CPUTIME_ID) - start)
        }
        fields["\(name)_cpu_s_per_mp"] = best / (Double(width * height) / 1e6)
    }
    guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else {
        fail("cannot write the JSON line")
    }
    print(String(decoding: data, as: UTF8.self))
}
