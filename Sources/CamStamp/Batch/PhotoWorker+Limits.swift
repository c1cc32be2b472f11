// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Media

extension PhotoWorker {
    /// Refuses, before anything is decoded, a photo the decoding path cannot take: a side over
    /// what GStreamer's videoconvert and videoscale accept, or more pixels than --max-pixels
    /// (decoded, marked and encoded again, a picture takes up to about 10 bytes of memory a pixel).
    func checkDecodable(_ photo: PhotoFacts) throws(CamStampError) {
        if max(photo.width, photo.height) > PhotoPipeline.maxSide {
            throw .failure(
                "the picture is \(photo.width)×\(photo.height) and camstamp decodes pictures of at most "
                    + "\(PhotoPipeline.maxSide) pixels a side (a JPEG written as a JPEG at its own size and quality is "
                    + "stamped without decoding, up to \(Self.maxJPEGSide)); scale it down first, "
                    + "e.g. vipsthumbnail --size \(PhotoPipeline.maxSide)")
        }
        let pixels = photo.width * photo.height
        guard pixels > settings.maxDecodedPixels else { return }
        throw .failure(
            "the picture is \(photo.width)×\(photo.height) (\(Self.megapixels(pixels)) megapixels), more than "
                + "the \(Self.megapixels(settings.maxDecodedPixels)) megapixels a photo may have to be decoded "
                + "(about 10 bytes of memory a pixel); "
                + "give --max-pixels \((pixels + 999_999) / 1_000_000)M to decode it, or scale it down first")
    }

    /// `count` pixels in megapixels, to a tenth at most: 225, 5.5.
    static func megapixels(_ count: Int) -> String {
        let tenths = (count + 50_000) / 100_000
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
