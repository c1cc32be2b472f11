// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The turn an MP4/MOV video track's display matrix (`tkhd`, ISO/IEC 14496-12 §8.3.2) asks
/// players for when it is not a quarter turn: qtdemux (1.22) tags only quarter turns
/// (`image-orientation`), so a clip tilted by 45° came out upright as stored, without a word.
package enum ContainerMatrix {
    /// The clockwise angle in degrees (-180…180) of `file`'s first video track's matrix, when it
    /// is a rotation and no multiple of 90°; nil for a quarter turn (or none), a matrix that is
    /// no rotation (a scale), or a file that is no MP4/MOV.
    package static func unappliedTurn(of file: URL) -> Double? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let movie = MovieBox.read(from: handle)?.bytes,
            let moov = MP4Box.header(movie, at: 0, within: movie.count),
            let header = moov.firstTrack(handledBy: "vide", in: movie)?.child("tkhd", in: movie),
            let version = movie.bigEndian(at: header.body.lowerBound, 1)
        else { return nil }
        // Version 1 has 64-bit times and duration: the matrix follows 52 bytes in, else 40.
        let start = header.body.lowerBound + (version == 1 ? 52 : 40)
        guard start + 20 <= header.body.upperBound else { return nil }
        // a, b, (u), c, d: 16.16 fixed point, signed.
        func fixed(_ index: Int) -> Double? {
            movie.bigEndian(at: start + 4 * index, 4).map { Double(Int32(bitPattern: UInt32($0))) / 65536 }
        }
        guard let a = fixed(0), let b = fixed(1), let c = fixed(3), let d = fixed(4) else { return nil }
        return turn(a: a, b: b, c: c, d: d)
    }

    /// The clockwise angle of the matrix (a b; c d) when it is a rotation by no multiple of 90°.
    package static func turn(a: Double, b: Double, c: Double, d: Double) -> Double? {
        let quarter: Set<Double> = [0, 1, -1]
        guard !(quarter.contains(a) && quarter.contains(b) && quarter.contains(c) && quarter.contains(d)) else {
            return nil
        }
        // A rotation: (cos, sin; -sin, cos), to the precision of 16.16 fixed point.
        let tolerance = 0.001
        guard abs(a - d) < tolerance, abs(b + c) < tolerance, abs(a * a + b * b - 1) < 2 * tolerance else { return nil }
        return (atan2(b, a) * 180 / .pi * 10).rounded() / 10
    }
}
