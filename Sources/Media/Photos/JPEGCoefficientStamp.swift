// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import CJPEGCoefficients

/// Why a JPEG could not be stamped in its DCT coefficients; the caller then re-encodes it.
public struct CoefficientStampError: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// libjpeg's warning when the data is damaged (a bad code, bytes left over in a restart
    /// interval, a table no decoder takes): the photo's warning says it, and --strict fails it.
    public var damage: String?

    init(description: String, damage: String? = nil) {
        self.description = description
        self.damage = damage
    }
}

/// Stamps a JPEG without re-encoding it: libjpeg reads the quantised DCT coefficients, and only
/// the 8×8 blocks under the marks are changed (dequantised with the photo's own tables, inverse
/// DCT, the mark blended in that component's plane, forward DCT, quantised with the same tables).
/// Every other block is written back exactly as it was, so the rest of the photo decodes to the
/// same pixels. The photo keeps its stored orientation: the marks are drawn into stored
/// coordinates so that they show upright once a viewer applies the EXIF orientation.
public final class JPEGCoefficientStamp {
    public struct Result: Sendable {
        /// A bare JPEG (no APP segments): the metadata is the caller's to add.
        public let data: Data
        /// How many 8×8 blocks, over all components, were rewritten, and how many there are.
        public let blocksChanged: Int
        public let blocksTotal: Int
        /// How many of the rewritten blocks came out with other coefficients than they had: 0 when
        /// the quantisation is so coarse that the marks round away everywhere.
        public var blocksAltered = 0
        /// Whether the entropy-coded data was spliced (tier 2) rather than written again from
        /// all the coefficients (tier 1).
        public var spliced = false
        /// Why a splice that was asked for was not done (a progressive or arithmetic-coded file,
        /// several scans, or Huffman tables without a code a changed block needs), if it was not.
        public var spliceSkipped: String?
        /// The splice was not done because the file's Huffman tables lack a code the changed
        /// blocks need (tier 1 then rebuilds the tables).
        public var tablesLackedACode = false
        /// Damage the splice saw that libjpeg let pass (bytes left over in a restart interval,
        /// which libjpeg-turbo does not warn about when its look-ahead met the marker first):
        /// tier 1 wrote the photo, and its warning should say it.
        public var damage: String?
        /// The block record (`recordingBlocks`): which blocks changed and the digest of the others.
        public var blocks: JPEGBlockRecord?
    }

    /// The plans of the marks in each component's plane, shared by every stamp of the process:
    /// a batch of photos of one size and orientation works them out once, whichever thread
    /// stamps them.
    let cache: PlanCache
    /// Not thread-safe: one instance per thread.
    let workspace = DCT.Workspace()

    public init() { cache = .shared }

    /// A stamp whose plans are kept in `cache` (tests use one of their own).
    init(cache: PlanCache) { self.cache = cache }

    /// `composition` is laid out for the upright picture (the stored one turned by `orientation`).
    /// Throws for what libjpeg reads but this path does not write (arithmetic coding, 12-bit
    /// samples, CMYK/YCCK) and for damaged data (any libjpeg warning).
    /// `splice`: a file of one sequential Huffman scan has its entropy-coded data spliced (only the
    /// changed MCUs and the one after each coded again, the rest copied); any other file, or one
    /// whose tables lack a code the changed blocks need, is written as without it.
    /// `recordingBlocks`: the result carries the block record of what changed.
    public func stamp(
        _ jpeg: Data, composition: OverlayComposition, orientation: Orientation,
        splice: Bool, recordingBlocks: Bool = false
    ) throws(CoefficientStampError) -> Result {
        guard splice else {
            return try stamp(
                jpeg, composition: composition, orientation: orientation, recordingBlocks: recordingBlocks)
        }
        let job = Job(placements: composition.placements, orientation: orientation, owner: self)
        if recordingBlocks { job.recorder = BlockRecorder() }
        let (status, output, skipped) = Self.call(jpeg, job) { input, count, context, output, length, message in
            cs_splice_coefficients(
                input, count, Self.prepareCallback, Self.wantsCallback, Self.windowCallback, context, output, length,
                message)
        }
        if status == 0, let output {
            var result = Result(data: output, blocksChanged: job.blocksChanged, blocksTotal: job.blocksTotal)
            result.blocksAltered = job.blocksAltered
            result.spliced = true
            result.blocks = job.recorder?.record()
            return result
        }
        if status == 2, let failure = job.failure { throw CoefficientStampError(description: failure) }
        // Anything else is tier 1's to write, or to refuse with its own reason.
        var result: Result
        do {
            result = try stamp(
                jpeg, composition: composition, orientation: orientation, recordingBlocks: recordingBlocks)
        } catch  where status == CS_SPLICE_DAMAGED && error.damage == nil {
            // Refused for another reason (a coloured mark on a grey photo): the damage is still said.
            throw CoefficientStampError(description: error.description, damage: skipped)
        }
        result.spliceSkipped = skipped
        result.tablesLackedACode = status == CS_SPLICE_MISSING_CODE
        if status == CS_SPLICE_DAMAGED { result.damage = result.spliceSkipped }
        return result
    }

    /// Tier 1 alone: every coefficient read and written again by libjpeg.
    public func stamp(
        _ jpeg: Data, composition: OverlayComposition,
        orientation: Orientation, recordingBlocks: Bool = false
    ) throws(CoefficientStampError) -> Result {
        let job = Job(placements: composition.placements, orientation: orientation, owner: self)
        if recordingBlocks { job.recorder = BlockRecorder() }
        let (status, output, text) = Self.call(jpeg, job) { input, count, context, output, length, message in
            cs_rewrite_coefficients(
                input, count, Self.prepareCallback, Self.filterCallback, context, output, length, message)
        }
        guard status == 0, let output else {
            if let failure = job.failure { throw CoefficientStampError(description: failure) }
            throw CoefficientStampError(description: "the picture data is damaged (\(text))", damage: text)
        }
        var result = Result(data: output, blocksChanged: job.blocksChanged, blocksTotal: job.blocksTotal)
        result.blocksAltered = job.blocksAltered
        result.blocks = job.recorder?.record()
        return result
    }

    /// One call into the C shim for `job` (its callbacks' context): the status, the output the
    /// shim allocated (freed with its Data), and the shim's message.
    private static func call(
        _ jpeg: Data, _ job: Job,
        _ body: (
            UnsafePointer<UInt8>?, Int, UnsafeMutableRawPointer, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
            UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>
        ) -> Int32
    ) -> (status: Int32, output: Data?, message: String) {
        let context = Unmanaged.passUnretained(job).toOpaque()
        var message = [CChar](repeating: 0, count: Int(CS_MESSAGE_LENGTH))
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = withExtendedLifetime(job) {
            jpeg.withUnsafeBytes { raw in
                message.withUnsafeMutableBufferPointer { text in
                    body(
                        raw.bindMemory(to: UInt8.self).baseAddress, raw.count, context, &output, &length,
                        text.baseAddress!)
                }
            }
        }
        let data = output.map { Data(bytesNoCopy: $0, count: length, deallocator: .free) }
        return (status, data, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private static let prepareCallback: cs_prepare = { context, frame in
        guard let context, let frame else { return 1 }
        return Unmanaged<Job>.fromOpaque(context).takeUnretainedValue().prepare(frame.pointee) ? 0 : 1
    }

    private static let wantsCallback: cs_wants_row = { context, component, row, first, end in
        guard let context, let first, let end,
            let columns = Unmanaged<Job>.fromOpaque(context).takeUnretainedValue().wants(
                component: Int(component), row: Int(row))
        else { return 0 }
        first.pointee = Int32(columns.lowerBound)
        end.pointee = Int32(columns.upperBound)
        return 1
    }

    private static let windowCallback: cs_filter_window = { context, component, row, first, blocks, count in
        guard let context, let blocks else { return 1 }
        Unmanaged<Job>.fromOpaque(context).takeUnretainedValue().filter(
            component: Int(component), row: Int(row), first: Int(first),
            blocks: blocks, count: Int(count))
        return 0
    }

    private static let filterCallback: cs_filter = { context, component, row, blocks, count in
        guard let context, let blocks else { return 1 }
        let job = Unmanaged<Job>.fromOpaque(context).takeUnretainedValue()
        job.filter(component: Int(component), row: Int(row), blocks: blocks, count: Int(count))
        job.recorder?.passed(component: Int(component), row: Int(row), blocks: blocks, count: Int(count))
        return 0
    }
}
