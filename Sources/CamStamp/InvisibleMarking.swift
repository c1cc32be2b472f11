// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
internal import Watermark

/// The invisible mark on a job's frames: the seam `--invisible` and `verify` go through. Given the
/// manifest's instance id it marks a frame; given a frame it reads what mark it carries.
enum InvisibleMarking {
    /// The frame's pixels as the mark reads them: I420 is taken for full-range BT.601 (a photo
    /// pipeline's, JPEG's), its Cb plane holding the mark; packed RGB as it is.
    private static func withPlane<R>(
        _ frame: VideoFrame, _ body: (ChromaPlane) throws(CamStampError) -> R
    ) throws(CamStampError) -> R {
        let known: ChromaPlane.Layout? =
            switch frame.formatName {
            case "I420": .cb(subsampling: 2)
            case "Y444": .cb(subsampling: 1)
            case "RGB": .packed(bytesPerPixel: 3, red: 0, green: 1, blue: 2)
            case "BGR": .packed(bytesPerPixel: 3, red: 2, green: 1, blue: 0)
            case "RGBx", "RGBA": .packed(bytesPerPixel: 4, red: 0, green: 1, blue: 2)
            case "BGRx", "BGRA": .packed(bytesPerPixel: 4, red: 2, green: 1, blue: 0)
            case "xRGB", "ARGB": .packed(bytesPerPixel: 4, red: 1, green: 2, blue: 3)
            case "xBGR", "ABGR": .packed(bytesPerPixel: 4, red: 3, green: 2, blue: 1)
            default: nil
            }
        guard let layout = known else {
            throw .failure(
                "cannot write an invisible mark into \(frame.formatName) frames; it needs I420, Y444 or 8-bit RGB")
        }
        do {
            return try frame.withMapped { (mapped) throws(MediaError) -> Result<R, CamStampError> in
                let index = if case .cb = layout { 1 } else { 0 }
                let plane = ChromaPlane(
                    base: mapped.plane(index).baseAddress!, stride: mapped.stride(index), width: frame.width,
                    height: frame.height, layout: layout)
                do throws(CamStampError) { return .success(try body(plane)) } catch { return .failure(error) }
            }.get()
        } catch let error as CamStampError {
            throw error
        } catch {
            throw .failure("cannot map the frame for the invisible mark: \(error)")
        }
    }

    /// Marks `frame` with the payload of `instanceID` (`MarkPayload(instanceID:)`) and gives it.
    @discardableResult
    static func embed(instanceID: String, into frame: VideoFrame) throws(CamStampError) -> MarkPayload {
        let payload = MarkPayload(instanceID: instanceID)
        try withPlane(frame) { (plane) throws(CamStampError) in
            do throws(InvisibleMark.Failure) { try InvisibleMark.embed(payload, into: plane) } catch {
                throw .failure("cannot write the invisible mark: \(error)")
            }
        }
        return payload
    }

    /// `frame` marked as `embed` marks it, in the colours a JPEG or PNG encoder keeps it in: a
    /// camera's frame (limited range, BT.709 at HD sizes) would have its mark's chroma scaled by
    /// the encoder's conversion to full-range BT.601, so it is converted first, into a new frame.
    static func marked(_ frame: VideoFrame, instanceID: String) throws(CamStampError) -> VideoFrame {
        var target = frame
        if !frame.isJPEGColour {
            do { target = try frame.inJPEGColour() } catch {
                throw .failure("cannot convert the frame for the invisible mark: \(error)")
            }
        }
        try embed(instanceID: instanceID, into: target)
        return target
    }

    /// What mark `frame` carries (compare it with a manifest's payload: `MarkReading.matches`).
    static func read(_ frame: VideoFrame) throws(CamStampError) -> MarkReading {
        try withPlane(frame) { (plane) throws(CamStampError) in
            do throws(InvisibleMark.Failure) { return try InvisibleMark.read(plane) } catch {
                throw .failure("cannot read an invisible mark: \(error)")
            }
        }
    }

    /// A new instance id for a mark without a manifest (`xmp:iid:` and a random UUID, as C2PA's).
    static func newInstanceID() -> String { "xmp:iid:\(UUID().uuidString.lowercased())" }
}

extension PhotoWorker {
    /// The invisible mark a photo was given, as `--json` says it.
    struct InvisibleMarkInfo: Encodable, Sendable {
        /// camstamp's own name for the mark, not one of C2PA's registered soft-binding algorithms.
        var algorithm = InvisibleMark.algorithm
        var instanceID: String
        /// The 64 bits carried, in hexadecimal: the first 8 bytes of SHA-256(instanceID).
        var payload: String

        init(instanceID: String) {
            self.instanceID = instanceID
            payload = MarkPayload(instanceID: instanceID).hex
        }

        enum CodingKeys: String, CodingKey {
            case algorithm, payload
            case instanceID = "instance_id"
        }
    }
}
