// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// What a JPEG's header says about its picture, read before any decoder sees it: how it is coded,
/// its colour model and chroma sampling, the quality its quantisation tables imply, and where the
/// picture's data ends (bytes after that, such as a motion photo's video, are not the picture).
public struct JPEGPicture: Sendable, Equatable {
    /// The frame header's marker: 0xC0 baseline, 0xC1 extended, 0xC2 progressive, ...
    public let frameMarker: UInt8
    /// Bits per sample: 8 in nearly every photo; 12 in some medical and scanner files.
    public let precision: Int
    public let width: Int
    public let height: Int
    /// Each component's horizontal and vertical sampling factors, in frame order.
    public let sampling: [(h: Int, v: Int)]
    /// The APP14 "Adobe" segment's transform byte (0 none, 1 YCbCr, 2 YCCK); nil without one.
    public let adobeTransform: Int?
    /// The quantisation table each component uses, in zigzag order as stored.
    let tables: [[Int]]

    public static func == (a: JPEGPicture, b: JPEGPicture) -> Bool {
        a.frameMarker == b.frameMarker && a.precision == b.precision && a.width == b.width && a.height == b.height
            && a.sampling.elementsEqual(b.sampling, by: { $0 == $1 }) && a.adobeTransform == b.adobeTransform
            && a.tables == b.tables
    }

    public enum ColourModel: Sendable { case grey, yCbCr, rgb, cmyk, ycck }

    /// How the chroma of a YCbCr picture is stored relative to its luma.
    public enum ChromaSampling: Sendable { case s420, s422, s411, s444, other }

    /// Reads the frame header, the quantisation tables and the Adobe segment; nil without a frame
    /// header.
    public init?(_ structure: JPEGStructure) {
        let sofMarkers: Set<UInt8> = Set(0xC0...0xCF).subtracting([0xC4, 0xC8, 0xCC])
        guard let sof = structure.segments.first(where: { sofMarkers.contains($0.marker) }) else { return nil }
        let p = [UInt8](sof.payload)
        guard p.count >= 6, p.count >= 6 + 3 * Int(p[5]), p[5] > 0 else { return nil }
        frameMarker = sof.marker
        precision = Int(p[0])
        height = Int(p[1]) << 8 | Int(p[2])
        width = Int(p[3]) << 8 | Int(p[4])
        var quantisation: [Int: [Int]] = [:]
        for segment in structure.segments where segment.marker == 0xDB {
            // One DQT segment may hold several tables, each 8- or 16-bit.
            let q = [UInt8](segment.payload)
            var pos = 0
            while pos < q.count {
                let wide = q[pos] >> 4 != 0, id = Int(q[pos] & 0x0F)
                let size = wide ? 128 : 64
                guard pos + 1 + size <= q.count else { break }
                quantisation[id] = (0..<64).map {
                    wide ? Int(q[pos + 1 + 2 * $0]) << 8 | Int(q[pos + 2 + 2 * $0]) : Int(q[pos + 1 + $0])
                }
                pos += 1 + size
            }
        }
        var sampling: [(h: Int, v: Int)] = []
        var tables: [[Int]] = []
        for c in 0..<Int(p[5]) {
            let factors = p[7 + 3 * c], table = Int(p[8 + 3 * c])
            sampling.append((Int(factors >> 4), Int(factors & 0x0F)))
            if let values = quantisation[table] { tables.append(values) }
        }
        self.sampling = sampling
        self.tables = tables
        let adobe = structure.segments.first {
            $0.marker == 0xEE && $0.payload.count >= 12 && $0.payload.starts(with: Array("Adobe".utf8))
        }
        adobeTransform = adobe.map { Int($0.payload[$0.payload.startIndex + 11]) }
    }

    /// The colour model libjpeg decodes the picture in (its rules: the Adobe transform, then
    /// component count).
    public var colourModel: ColourModel {
        switch sampling.count {
        case 1: .grey
        case 4: adobeTransform == 2 ? .ycck : .cmyk
        default: adobeTransform == 0 ? .rgb : .yCbCr
        }
    }

    /// The chroma sampling of a YCbCr picture (4:4:4 for other colour models, which store every
    /// component at full resolution in practice).
    public var chroma: ChromaSampling {
        guard colourModel == .yCbCr, sampling.count == 3, sampling[1] == sampling[2],
            sampling[1].h > 0, sampling[1].v > 0
        else { return colourModel == .yCbCr ? .other : .s444 }
        switch (sampling[0].h / sampling[1].h, sampling[0].v / sampling[1].v) {
        case (1, 1): return .s444
        case (2, 1): return .s422
        case (2, 2): return .s420
        case (4, 1): return .s411
        default: return .other
        }
    }

    /// Why camstamp's decoders (libjpeg-turbo, 8-bit) cannot read this picture; nil when they can.
    public var unsupportedCoding: String? {
        if [0xC3, 0xC7, 0xCB, 0xCF].contains(frameMarker) { return "lossless JPEG coding" }
        if [0xC5, 0xC6, 0xCD, 0xCE].contains(frameMarker) { return "hierarchical JPEG coding" }
        if precision != 8 { return "\(precision)-bit samples (only 8-bit JPEGs are read)" }
        if ![1, 3, 4].contains(sampling.count) { return "\(sampling.count) colour components" }
        // libjpeg's JPEG_MAX_DIMENSION: past it, it refuses the header.
        if width > 65_500 || height > 65_500 {
            return "\(width)×\(height) pixels (libjpeg-turbo reads 65,500 a side at most)"
        }
        // TurboJPEG reads 4:4:4, 4:2:2, 4:2:0, 4:4:0 and 4:1:1 (jpegdec turns the last green, so
        // libjpeg-turbo decodes it); jpegdec makes other YCbCr samplings green or fails.
        if colourModel == .yCbCr, sampling.count == 3, sampling[1] == sampling[2], sampling[1].h > 0, sampling[1].v > 0
        {
            if sampling[1].h > sampling[0].h || sampling[1].v > sampling[0].v {
                return "chroma sampled more finely than luma (\(Self.factors(sampling)))"
            }
            let ratio = (sampling[0].h / sampling[1].h, sampling[0].v / sampling[1].v)
            let read = [(1, 1), (2, 1), (2, 2), (1, 2), (4, 1)]
            if !read.contains(where: { $0 == ratio }) {
                let name = ratio == (4, 2) ? "4:1:0" : ratio == (1, 4) ? "4:4:1" : "\(ratio.0)×\(ratio.1)"
                return "\(name) chroma sampling (camstamp reads 4:4:4, 4:2:2, 4:2:0, 4:4:0 and 4:1:1)"
            }
        }
        return nil
    }

    /// Why the decoders would decode this picture wrongly or not at all, though it is stamped
    /// right in its coefficients: Cb and Cr sampled differently (jpegdec gives the wrong colours,
    /// TurboJPEG cannot tell the sampling). nil when they read it.
    public var undecodable: String? {
        guard colourModel == .yCbCr, sampling.count == 3, sampling[1] != sampling[2] else { return nil }
        return "its Cb and Cr are sampled differently (\(Self.factors(sampling)))"
    }

    /// Sampling factors as cjpeg's -sample takes them: `2x2,1x1,1x1`.
    static func factors(_ sampling: [(h: Int, v: Int)]) -> String {
        sampling.map { "\($0.h)x\($0.v)" }.joined(separator: ",")
    }

    /// The IJG quality (1…100) whose scaled standard tables are nearest to this picture's: exact
    /// for files written by libjpeg, cjpeg, jpegenc, ImageMagick and most cameras, the closest
    /// match otherwise. nil without quantisation tables.
    public var estimatedQuality: Int? {
        guard let luma = tables.first else { return nil }
        let chromaTable = tables.count > 1 ? tables[1] : nil
        var best: (quality: Int, distance: Int)?
        for quality in 1...100 {
            var distance = zip(luma, Self.scaledTable(Self.standardLuma, quality: quality)).reduce(0) {
                $0 + abs($1.0 - $1.1)
            }
            if let chromaTable {
                distance += zip(chromaTable, Self.scaledTable(Self.standardChroma, quality: quality)).reduce(0) {
                    $0 + abs($1.0 - $1.1)
                }
            }
            // Ties go to the higher quality: never re-encode worse than the source.
            if best == nil || distance <= best!.distance { best = (quality, distance) }
        }
        return best?.quality
    }

    /// A standard table (natural order) scaled for `quality` as libjpeg's jpeg_set_quality does
    /// with baseline limits, in zigzag order as a DQT stores it.
    static func scaledTable(_ table: [Int], quality: Int) -> [Int] {
        let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
        return zigzag.map { min(255, max(1, (table[$0] * scale + 50) / 100)) }
    }

    /// The natural-order index of each zigzag position.
    static let zigzag = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14,
        21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60,
        61, 54, 47, 55, 62, 63,
    ]

    /// The JPEG standard's example tables (ITU T.81 Annex K), which libjpeg scales by quality.
    static let standardLuma = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]
    static let standardChroma =
        [
            17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99,
            47, 66, 99, 99, 99, 99, 99, 99,
        ] + Array(repeating: 99, count: 32)

    /// The offset just past the picture's EOI marker, found by walking the scans from
    /// `structure.scanOffset` (entropy-coded data, and the segments between progressive scans);
    /// nil when the file ends first (a truncated picture).
    public static func end(of data: Data, structure: JPEGStructure) -> Int? {
        scans(of: data, structure: structure).end
    }

    /// `end(of:structure:)`, and whether the first scan is the picture's only segment after its
    /// header (a baseline picture: no table or other segment between scans, nor a second scan).
    public static func scans(of data: Data, structure: JPEGStructure) -> (end: Int?, single: Bool) {
        var segments = 0
        let end = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = bytes.count
            var pos = structure.scanOffset
            while pos + 1 < count {
                // At a marker: fill bytes first, then its code.
                guard bytes[pos] == 0xFF else { return nil }
                while pos + 1 < count, bytes[pos + 1] == 0xFF { pos += 1 }
                guard pos + 1 < count else { return nil }
                let marker = bytes[pos + 1]
                if marker == 0xD9 { return pos + 2 }
                segments += 1
                if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                    pos += 2
                } else {
                    guard pos + 3 < count else { return nil }
                    pos += 2 + (Int(bytes[pos + 2]) << 8 | Int(bytes[pos + 3]))
                }
                // Entropy-coded data (or nothing) up to the next marker: 0xFF 0x00 is a stuffed
                // byte and 0xFF 0xD0…D7 a restart, both part of the data.
                while pos < count {
                    guard let found = memchr(bytes.baseAddress! + pos, 0xFF, count - pos) else { return nil }
                    pos = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    guard pos + 1 < count else { return nil }
                    let next = bytes[pos + 1]
                    if next == 0x00 || (0xD0...0xD7).contains(next) { pos += 2 } else { break }
                }
            }
            return nil
        }
        return (end, end != nil && segments == 1)
    }
}
