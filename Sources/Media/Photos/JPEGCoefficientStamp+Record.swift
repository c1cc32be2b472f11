// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import CJPEGCoefficients

extension JPEGCoefficientStamp {
    /// Collects a stamp's block record as it runs: the blocks `filter` rewrote and, on tier 1,
    /// whose every block row passes through Swift once in the record's order, the digest of the
    /// others. Tier 2 holds only the rows under the marks: its digest would be one more
    /// coefficient read of the source, which more than doubles a signed splice's time and memory,
    /// so its record has none (`verify --parent` compares the blocks themselves).
    final class BlockRecorder {
        private var frame = cs_frame()
        private var layout: [JPEGBlockRecord.Component] = []
        /// A byte per block, component after component (the record's order): 1 where rewritten.
        private var changed: [UInt8] = []
        private var bases: [Int] = []
        private var digest: OpaquePointer?
        private var next = (component: 0, row: 0)
        private var inPass = true

        deinit { discard() }

        func prepare(_ frame: cs_frame) {
            self.frame = frame
            layout = JPEGBlocks.components(frame)
            bases = layout.indices.map { c in layout[..<c].reduce(0) { $0 + $1.width * $1.height } }
            changed = [UInt8](repeating: 0, count: layout.reduce(0) { $0 + $1.width * $1.height })
            discard()
            next = (0, 0)
            inPass = true
        }

        func rewrote(component: Int, row: Int, column: Int) {
            guard component < layout.count, column < layout[component].width, row < layout[component].height else {
                return
            }
            changed[bases[component] + row * layout[component].width + column] = 1
        }

        /// Tier 1's block row after `filter`: digested when it is the row the order expects.
        func passed(component: Int, row: Int, blocks: UnsafePointer<Int16>, count: Int) {
            guard inPass, component < layout.count, next == (component, row), count == layout[component].width
            else {
                inPass = false
                return
            }
            if digest == nil, component == 0, row == 0 { digest = cs_digest_new(&frame) }
            guard let digest else {
                inPass = false
                return
            }
            changed.withUnsafeBufferPointer { map in
                cs_digest_row(digest, blocks, Int32(count), map.baseAddress! + bases[component] + row * count)
            }
            next = row + 1 < layout[component].height ? (component, row + 1) : (component + 1, 0)
        }

        /// The record of the stamp that ran, with the digest tier 1 made as it went (none otherwise).
        func record() -> JPEGBlockRecord {
            var components = layout
            for c in components.indices {
                let start = bases[c]
                components[c].changed = JPEGBlockRecord.rectangles(
                    changed[start..<start + layout[c].width * layout[c].height], width: layout[c].width,
                    height: layout[c].height)
            }
            let capped = JPEGBlockRecord.capped(components)
            var record = JPEGBlockRecord(components: capped, digest: [])
            if inPass, capped == components, next == (layout.count, 0), let digest {
                self.digest = nil
                var bytes = [UInt8](repeating: 0, count: 32)
                if cs_digest_finish(digest, &bytes) == 0 { record.digest = bytes }
            }
            return record
        }

        private func discard() {
            guard let digest else { return }
            var bytes = [UInt8](repeating: 0, count: 32)
            _ = cs_digest_finish(digest, &bytes)
            self.digest = nil
        }
    }
}
