// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// Blur radius in pixels for one box pass such that three passes spread about `blur` pixels:
/// three box passes of radius r approximate a Gaussian and reach 3r pixels out.
func boxBlurRadius(forBlur blur: Double) -> Int {
    // Capped far above any preset's blur (8192 px) so a wild value cannot overflow the Int.
    blur > 0 ? max(1, Int((min(blur, 1e6) / 3).rounded())) : 0
}

/// Blurs 8-bit coverage in place with a separable box blur run `passes` times in each direction
/// (a close, cheap Gaussian). Pixels outside the buffer count as 0, so the caller leaves a
/// `passes * radius` transparent margin for the blur to spread into.
func boxBlur(
    _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int,
    radius: Int, passes: Int = 3
) {
    guard radius > 0, width > 0, height > 0 else { return }
    var scratch = [Int](repeating: 0, count: max(width, height))
    scratch.withUnsafeMutableBufferPointer { line in
        for y in 0..<height {
            for _ in 0..<passes { blurLine(data + y * stride, step: 1, count: width, radius: radius, line: line) }
        }
        for x in 0..<width {
            for _ in 0..<passes { blurLine(data + x, step: stride, count: height, radius: radius, line: line) }
        }
    }
}

/// One running-sum box pass over `count` samples `step` bytes apart.
private func blurLine(
    _ start: UnsafeMutablePointer<UInt8>, step: Int, count: Int, radius: Int,
    line: UnsafeMutableBufferPointer<Int>
) {
    for i in 0..<count { line[i] = Int(start[i * step]) }
    // Dividing by the window as a multiply by its 24-bit fixed-point reciprocal: the divide
    // otherwise dominates the loop.
    let shift = 24
    let reciprocal = (1 << shift) / (2 * radius + 1), half = 1 << (shift - 1)
    var sum = 0
    for i in 0..<min(radius, count) { sum += line[i] }
    for i in 0..<count {
        if i + radius < count { sum += line[i + radius] }
        if i - radius - 1 >= 0 { sum -= line[i - radius - 1] }
        start[i * step] = UInt8(min((sum * reciprocal + half) >> shift, 255))
    }
}
