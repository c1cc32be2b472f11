// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// What the stream's encoder can take, checked with the options: past these limits x264enc either
// fails late with "Can not initialize x264 encoder", ignores the value with a GLib warning, or runs
// far slower than real time.

/// The limits of H.264 as x264 encodes it, for `stream --size`, `--fps` and `--bitrate`.
public enum H264Limits {
    /// x264enc's `bitrate` property, kbit/s (outside it GLib warns and keeps the default).
    public static let bitrate: ClosedRange<Int> = 1...2_048_000
    /// Macroblocks (16x16 pixels) in one frame at H.264's highest level, 6.2.
    public static let maxFrameMacroblocks = 139_264
    /// Macroblocks a second at level 6.2.
    public static let maxMacroblockRate = 16_711_680
    /// The narrowest side MP4 takes: mp4mux refuses a picture under one macroblock (16 pixels) a
    /// side, so the pipeline would not even link. Matroska, MPEG-TS and FLV take any size.
    public static let mp4SmallestSide = 16
    /// The frame size the test camera delivers when no `--size` is given.
    public static let testCameraSize = FrameSize(width: 1280, height: 720)

    /// Macroblocks in one `size` frame.
    static func macroblocks(_ size: FrameSize) -> Int {
        ((size.width + 15) / 16) * ((size.height + 15) / 16)
    }

    /// Checks `--size`: even sides (4:2:0 halves both) and within level 6.2's frame size, and at
    /// least 16x16 when `mp4` (a target is an MP4 file). `subject` names the size in the message
    /// (the frames a source gives, when no --size chose them).
    public static func check(size: FrameSize, subject: String? = nil, mp4: Bool = false) throws(OptionValueError) {
        let subject = subject ?? "'--size' \(size)"
        guard size.width % 2 == 0, size.height % 2 == 0 else {
            throw OptionValueError(
                "\(subject) cannot be encoded: H.264 (4:2:0) needs an even width and height, e.g. \(max(2, size.width & ~1))x\(max(2, size.height & ~1))"
            )
        }
        guard !mp4 || min(size.width, size.height) >= mp4SmallestSide else {
            let smallest = mp4SmallestSide
            throw OptionValueError(
                "\(subject) \(subject.hasSuffix("frames") ? "are" : "is") too small for MP4: at least \(smallest)x\(smallest), e.g. \(max(smallest, size.width))x\(max(smallest, size.height)); a .mkv file takes any size"
            )
        }
        guard macroblocks(size) <= maxFrameMacroblocks else {
            throw OptionValueError(
                "\(subject) \(subject.hasSuffix("frames") ? "are" : "is") too large for H.264: at most \(maxFrameMacroblocks) blocks of 16x16 pixels a frame, e.g. 8192x4320"
            )
        }
    }

    /// Checks `--fps` against level 6.2's macroblock rate at `size` (the frames' size when it is
    /// known: the one asked for, or the test camera's).
    public static func check(fps: Int, size: FrameSize) throws(OptionValueError) {
        let most = maxMacroblockRate / macroblocks(size)
        guard fps <= most else {
            throw OptionValueError(
                "'--fps' \(fps) is too fast for H.264 at \(size): at most \(most) frames a second at that size")
        }
    }
}
