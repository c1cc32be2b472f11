// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import CJPEGCoefficients

/// A JPEG's quantised DCT coefficients read by libjpeg (`jpeg_read_coefficients`) and held against
/// a block record or another JPEG: what `camstamp verify` checks a coefficient-stamped photo with.
public enum JPEGBlocks {
    /// The SHA-256 over `jpeg`'s tables and its blocks outside `record`'s changed set, in the
    /// record's order; `.layout` when its components are not laid out as the record says.
    public static func digest(_ jpeg: Data, outside record: JPEGBlockRecord) throws(JPEGBlockError) -> [UInt8] {
        let skip = record.skipMap()
        var frame = cs_frame()
        var digest = [UInt8](repeating: 0, count: 32)
        var message = [CChar](repeating: 0, count: Int(CS_MESSAGE_LENGTH))
        let status = jpeg.withUnsafeBytes { raw in
            cs_block_digest(
                raw.bindMemory(to: UInt8.self).baseAddress, raw.count, skip, skip.count, &frame, &digest, &message)
        }
        if status == 1 { throw .unreadable(text(message)) }
        let layout = components(frame)
        guard status == 0, layout.count == record.components.count,
            zip(layout, record.components).allSatisfy({ sameLayout($0, $1) })
        else {
            throw .layout("its blocks are laid out as \(words(layout)), the record says \(words(record.components))")
        }
        return digest
    }

    /// A byte per block (1 where they differ) of `a` against `b`, in the record's order, with
    /// `a`'s layout; `.layout` when their layouts or quantisation tables differ.
    public static func differences(
        _ a: Data, _ b: Data
    ) throws(JPEGBlockError) -> (layout: [JPEGBlockRecord.Component], differ: [UInt8]) {
        var frameA = cs_frame(), frameB = cs_frame()
        var map: UnsafeMutablePointer<UInt8>?
        var count = 0
        var message = [CChar](repeating: 0, count: Int(CS_MESSAGE_LENGTH))
        let status = a.withUnsafeBytes { first in
            b.withUnsafeBytes { second in
                cs_block_differences(
                    first.bindMemory(to: UInt8.self).baseAddress, first.count,
                    second.bindMemory(to: UInt8.self).baseAddress, second.count, &map, &count, &frameA, &frameB,
                    &message)
            }
        }
        defer { free(map) }
        if status == 1 { throw .unreadable(text(message)) }
        guard status == 0, let map else {
            let sameBlocks = zip(components(frameA), components(frameB)).allSatisfy { sameLayout($0, $1) }
            throw .layout(
                sameBlocks && frameA.components == frameB.components
                    ? "their quantisation tables differ"
                    : "their blocks are laid out as \(words(components(frameA))) and \(words(components(frameB)))")
        }
        return (components(frameA), Array(UnsafeBufferPointer(start: map, count: count)))
    }

    /// How many of the blocks marked in `differ` lie outside `record`'s changed set.
    public static func outside(_ record: JPEGBlockRecord, differ: [UInt8]) -> Int {
        let skip = record.skipMap()
        guard skip.count == differ.count else { return differ.reduce(0) { $0 + Int($1) } }
        return zip(skip, differ).reduce(0) { $0 + ($1.0 == 0 && $1.1 != 0 ? 1 : 0) }
    }

    static func components(_ frame: cs_frame) -> [JPEGBlockRecord.Component] {
        let count = max(0, min(Int(frame.components), Int(CS_MAX_COMPONENTS)))
        let h = [frame.h.0, frame.h.1, frame.h.2, frame.h.3], v = [frame.v.0, frame.v.1, frame.v.2, frame.v.3]
        let width = [
            frame.width_in_blocks.0, frame.width_in_blocks.1, frame.width_in_blocks.2, frame.width_in_blocks.3,
        ]
        let height = [
            frame.height_in_blocks.0, frame.height_in_blocks.1, frame.height_in_blocks.2, frame.height_in_blocks.3,
        ]
        return (0..<count).map {
            JPEGBlockRecord.Component(
                width: Int(width[$0]), height: Int(height[$0]), h: Int(h[$0]), v: Int(v[$0]), changed: [])
        }
    }

    private static func sameLayout(_ a: JPEGBlockRecord.Component, _ b: JPEGBlockRecord.Component) -> Bool {
        a.width == b.width && a.height == b.height && a.h == b.h && a.v == b.v
    }

    /// `1500×1000 (2×2), 750×500 (1×1), …`: each component's blocks and sampling.
    private static func words(_ components: [JPEGBlockRecord.Component]) -> String {
        components.map { "\($0.width)×\($0.height) blocks (\($0.h)×\($0.v))" }.joined(separator: ", ")
    }

    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
