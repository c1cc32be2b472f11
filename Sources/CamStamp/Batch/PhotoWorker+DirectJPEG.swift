// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

extension PhotoWorker {
    /// A 4:2:0 JPEG re-encoded as a 4:2:0 JPEG of its own size, without a pipeline (see
    /// `JPEGDirectReencode`): what most cameras' photos are under --reencode. nil for any other
    /// photo or request, and for data libjpeg warns about, which take the usual path.
    func reencodeDirectly(
        _ picture: Data, photo: PhotoFacts, outputKind: ImageFormat, request: PhotoRequest,
        mark: (VideoFrame) -> Error?
    ) throws(CamStampError) -> (output: PipelineOutput, warning: String?)? {
        guard outputKind == .jpg, photo.kind == .jpg, !photo.truncated, request.size == nil,
            request.workFormat == nil, request.encodingFormat == "I420", let quality = request.quality,
            let jpeg = photo.jpeg, jpeg.colourModel == .yCbCr, jpeg.chroma == .s420
        else { return nil }
        do {
            guard
                let encoded = try JPEGDirectReencode.reencode(
                    picture, orientation: photo.orientation, quality: quality, mark: mark)
            else { return nil }
            return (.encoded(encoded), nil)
        } catch {
            switch error {
            case .mark(let failure):
                throw .failure("\(Self.cannotMark): \((failure as? MarkFailure)?.error ?? failure)")
            case .encode(let failure):
                throw .failure("cannot mark or encode the image: \(failure)")
            }
        }
    }
}
