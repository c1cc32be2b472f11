// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Credentials
import Foundation
internal import Media

/// `verify` on a JPEG stamped in its coefficients: whether the blocks outside the marks are the
/// parent's, against the hash of camstamp's block record and, with `--parent SRC`, block by block
/// against SRC.
extension VerifyJob {
    struct BlockFinding {
        var changed = 0
        var total = 0
        /// `--parent`, compared block by block.
        var parent: URL?
        /// Why the pixels outside the marks are not shown to be the parent's; nil when they are.
        var problem: String?
        /// Whether anything was checked: a spliced photo's record has no hash, so without
        /// `--parent` there is only what it says changed.
        var checked = true
        /// Where the changed blocks are, in the stored picture's pixels (before its EXIF
        /// orientation turns it): every component's rectangles, at most `maxRectangles` of them.
        var regions: [JPEGBlockRecord.Rectangle] = []
        /// The stored picture's size those regions lie in, and its EXIF orientation.
        var size = (width: 0, height: 0)
        var orientation = 1

        var good: Bool { problem == nil }
    }

    /// `record`'s changed blocks in the stored picture's pixels: a component sampled at h×v of the
    /// largest factors (1…4, as the record's reader checks) has blocks of 8·max/h × 8·max/v pixels.
    /// A rectangle is cut to its component, as the map of changed blocks cuts it.
    static func regions(_ record: JPEGBlockRecord) -> (regions: [JPEGBlockRecord.Rectangle], width: Int, height: Int) {
        let maxH = record.components.map(\.h).max() ?? 1, maxV = record.components.map(\.v).max() ?? 1
        var regions: [JPEGBlockRecord.Rectangle] = []
        var size = (width: 0, height: 0)
        for component in record.components {
            let (sx, sy) = (8 * maxH / component.h, 8 * maxV / component.v)
            size = (max(size.width, component.width * sx), max(size.height, component.height * sy))
            for r in component.changed.prefix(JPEGBlockRecord.maxRectangles - regions.count) {
                let x = max(0, r.x), y = max(0, r.y)
                let width = min(component.width, r.x + r.width) - x, height = min(component.height, r.y + r.height) - y
                guard width > 0, height > 0 else { continue }
                regions.append(.init(x: x * sx, y: y * sy, width: width * sx, height: height * sy))
            }
        }
        return (regions, size.width, size.height)
    }

    /// What the block record of `data`'s manifest says, checked; nil when there is none and no
    /// `--parent` asks for one.
    static func blockFinding(_ data: Data, _ result: Verification, parent: (url: URL, data: Data)?) -> BlockFinding? {
        guard let parsed = BlockAssertion.record(result) else {
            guard let parent else { return nil }
            return BlockFinding(
                parent: parent.url,
                problem: "--parent \(parent.url.path): no block record (\(BlockAssertion.label)) to compare with; "
                    + "only a JPEG batch stamped in its coefficients and signed has one")
        }
        guard case .record(let record) = parsed else {
            return BlockFinding(problem: "its block record (\(BlockAssertion.label)) does not read")
        }
        var finding = BlockFinding(changed: record.blocksChanged, total: record.blocksTotal, parent: parent?.url)
        let drawn = regions(record)
        (finding.regions, finding.size) = (drawn.regions, (drawn.width, drawn.height))
        finding.orientation = (try? PhotoFacts(data))?.orientation.rawValue ?? 1
        finding.checked = !record.digest.isEmpty || parent != nil
        do throws(JPEGBlockError) {
            if !record.digest.isEmpty, try JPEGBlocks.digest(data, outside: record) != record.digest {
                finding.problem = "the blocks outside the recorded marks do not match the recorded hash"
            }
        } catch {
            finding.problem = "\(error)"
        }
        if let parent { finding.problem = finding.problem ?? compare(data, parent, record) }
        return finding
    }

    /// Why `parent` is not the parent of `data` under `record`, or nil when it is: every block
    /// that differs lies in the changed set, and its blocks outside it hash to the recorded hash
    /// (when the record has one).
    private static func compare(_ data: Data, _ parent: (url: URL, data: Data), _ record: JPEGBlockRecord) -> String? {
        let name = "--parent \(parent.url.path)"
        do throws(JPEGBlockError) {
            let (_, differ) = try JPEGBlocks.differences(parent.data, data)
            let outside = JPEGBlocks.outside(record, differ: differ)
            if outside > 0 {
                return "\(grouped(outside)) blocks outside the marks differ from those of \(name): it is not the parent"
            }
            if !record.digest.isEmpty, try JPEGBlocks.digest(parent.data, outside: record) != record.digest {
                return "\(name) does not match the recorded hash: it is not the parent"
            }
            return nil
        } catch {
            return "\(name) is not the parent: \(error)"
        }
    }

    /// The words after the file's line: `outside the marks: the parent's pixels (…)`.
    static func words(_ finding: BlockFinding) -> String {
        guard finding.good else { return "outside the marks: not the parent's pixels (\(finding.problem ?? ""))" }
        let share = finding.total > 0 ? Double(finding.changed) * 100 / Double(finding.total) : 0
        guard finding.checked else {
            return "outside the marks: not checked (\(grouped(finding.changed)) of \(grouped(finding.total)) blocks "
                + "changed, \(String(format: "%.2f", share)) %, as recorded; --parent SRC compares the others with it)"
        }
        var words =
            "outside the marks: the parent's pixels (\(grouped(finding.changed)) of \(grouped(finding.total)) "
            + "blocks changed, \(String(format: "%.2f", share)) %)"
        if let parent = finding.parent { words += ", block for block those of \(parent.path)" }
        return words
    }

    /// `--json`'s `outside_marks` object.
    static func json(_ finding: BlockFinding) -> JSONValue {
        var object: [String: JSONValue] = [
            "checked": .bool(finding.checked), "changed_blocks": .number(Double(finding.changed)),
            "total_blocks": .number(Double(finding.total)),
        ]
        if finding.checked { object["parents_pixels"] = .bool(finding.good) }
        object["parent"] = finding.parent.map { .string($0.path) }
        object["problem"] = finding.problem.map { .string($0) }
        if !finding.regions.isEmpty {
            // For a picture of the changed blocks (the verify page's): [x, y, width, height] each.
            object["changed_regions"] = [
                "width": .number(Double(finding.size.width)), "height": .number(Double(finding.size.height)),
                "orientation": .number(Double(finding.orientation)),
                "rectangles": .array(
                    finding.regions.map { r in .array([r.x, r.y, r.width, r.height].map { .number(Double($0)) }) }),
            ]
        }
        return .object(object)
    }

    /// 1234567 as `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }
}
