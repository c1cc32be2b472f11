// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstVideo
import Foundation

/// The test camera's wall clock drawn into its frames, for the benches (bench/README.md, 7c):
/// with `CAMSTAMP_TEST_CLOCK=1`, every frame of the built-in test camera carries the time it was
/// made, so a page can read back from the frame on its screen how late that frame is. Not a user
/// option: it spoils the picture on purpose.
///
/// The code is a grid of `columns` × `rows` blocks of `block` px, top-left of the frame (the
/// shipped marks sit at the bottom), white (Y 235) for 1 and black (Y 16) for 0, grey chroma,
/// read left to right and top to bottom: the 4 `sync` blocks, then the low 32 bits of the
/// CLOCK_REALTIME milliseconds, most significant first, then 4 check bits, the XOR of those 32
/// bits' eight nibbles. Blocks of 16 px on a 16 px grid are whole macroblocks and JPEG blocks,
/// so H.264 and JPEG at the preview's rates keep them two clear levels apart.
enum TestClockStamp {
    static let variable = "CAMSTAMP_TEST_CLOCK"
    static let block = 16, columns = 10, rows = 4
    static let sync: [Bool] = [true, false, true, true]

    static var isAsked: Bool { ProcessInfo.processInfo.environment[variable] == "1" }

    /// The grid's blocks for `milliseconds`, in reading order (true is white).
    static func bits(milliseconds: UInt64) -> [Bool] {
        let value = UInt32(truncatingIfNeeded: milliseconds)
        var check: UInt32 = 0
        for nibble in 0..<8 { check ^= (value >> (4 * UInt32(nibble))) & 0xF }
        return sync + (0..<32).map { value >> (31 - UInt32($0)) & 1 == 1 }
            + (0..<4).map { check >> (3 - UInt32($0)) & 1 == 1 }
    }

    /// Writes the grid for `milliseconds` into the planes, in place; a frame too small for it is
    /// left as it is.
    static func draw(milliseconds: UInt64, into planes: Planes420) {
        guard planes.width >= columns * block, planes.height >= rows * block else { return }
        for (index, white) in bits(milliseconds: milliseconds).enumerated() {
            let left = index % columns * block, top = index / columns * block
            for row in top..<top + block {
                let line = planes.luma + row * planes.lumaStride + left
                line.update(repeating: white ? 235 : 16, count: block)
            }
            // Grey chroma: the test pattern's colour under a block would tint it and move its luma
            // once a decoder converts it to RGB.
            for row in top / 2..<(top + block) / 2 {
                for column in left / 2..<(left + block) / 2 {
                    let sample = row * planes.chromaStride + column * planes.chromaStep
                    planes.cb[sample] = 128
                    planes.cr[sample] = 128
                }
            }
        }
    }
}

extension Pipeline {
    /// With `CAMSTAMP_TEST_CLOCK=1` in the environment, the test camera (the element named
    /// `camera`) stamps each frame with the time it leaves the source (`TestClockStamp`); without
    /// it, nothing. A live videotestsrc pushes a frame when the clock reaches the frame's time, so
    /// the time written is the frame's capture.
    public func stampTestClockIfAsked() throws(MediaError) {
        guard TestClockStamp.isAsked else { return }
        let probe = MarkProbe()
        probe.action = { frame, _, _ in
            let milliseconds = UInt64(Date().timeIntervalSince1970 * 1000)
            // A frame of another format than 4:2:0, or one that cannot be mapped, goes on as it is:
            // the reader counts it as unreadable.
            try? frame.withVideoFrame { raw throws(MediaError) in
                if let planes = Planes420(raw) { TestClockStamp.draw(milliseconds: milliseconds, into: planes) }
            }
            return .pass
        }
        try probe.install(on: self, element: "camera")
    }
}
