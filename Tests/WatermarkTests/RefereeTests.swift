// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Our mark against invisible-watermark's dwtDct, both ways, on generated photos.
import Foundation
import Testing
import TestSupport
import Watermark

/// Marks `picture` in place (packed RGB) with `payload`.
func embed(_ payload: MarkPayload, into picture: inout RGBPicture) throws {
    let (width, height) = (picture.width, picture.height)
    try picture.pixels.withUnsafeMutableBytes { bytes in
        let plane = ChromaPlane(
            base: bytes.baseAddress!, stride: width * 3, width: width, height: height,
            layout: .packed(bytesPerPixel: 3, red: 0, green: 1, blue: 2))
        try InvisibleMark.embed(payload, into: plane)
    }
}

/// What our reader finds in `picture`.
func read(_ picture: RGBPicture) throws -> MarkReading {
    var pixels = picture.pixels
    return try pixels.withUnsafeMutableBytes { bytes in
        try InvisibleMark.read(
            ChromaPlane(
                base: bytes.baseAddress!, stride: picture.width * 3, width: picture.width, height: picture.height,
                layout: .packed(bytesPerPixel: 3, red: 0, green: 1, blue: 2)))
    }
}

@Suite(.needsMarkReferee) struct RefereeTests {
    let payload = MarkPayload(instanceID: "xmp:iid:0b8c57a1-4f7e-4d6a-9c3b-6e2f1a8d5c70")

    /// A generated 1200×900 photo (150 blocks a row: bit n lands on every column) (referee.py's generator) and its file.
    func photo(_ seed: Int, in folder: URL) throws -> (RGBPicture, URL) {
        let file = folder.appendingPathComponent("photo\(seed).ppm")
        try markReferee(["photo", "\(seed)", "1200", "900", file.path])
        return (try RGBPicture(ppm: file), file)
    }

    @Test func refereeReadsOurMarkAtFortyDecibels() throws {
        let folder = try temporaryFolder()
        for seed in 1...3 {
            let (original, _) = try photo(seed, in: folder)
            var marked = original
            try embed(payload, into: &marked)
            let file = folder.appendingPathComponent("marked\(seed).ppm")
            try marked.write(ppm: file)
            #expect(try markReferee(["decode", file.path]) == payload.hex, "photo \(seed)")
            #expect(marked.psnr(against: original) >= 40, "photo \(seed)")
            #expect(try read(marked).payload == payload, "photo \(seed)")
        }
    }

    @Test func ourMarkSurvivesJPEG75BothReaders() throws {
        let folder = try temporaryFolder()
        for seed in 4...6 {
            var (marked, _) = try photo(seed, in: folder)
            try embed(payload, into: &marked)
            let file = folder.appendingPathComponent("marked\(seed).ppm")
            let compressed = folder.appendingPathComponent("q75-\(seed).ppm")
            try marked.write(ppm: file)
            try markReferee(["jpeg", file.path, compressed.path, "75"])
            #expect(try markReferee(["decode", compressed.path]) == payload.hex, "photo \(seed)")
            #expect(try read(RGBPicture(ppm: compressed)).payload == payload, "photo \(seed)")
        }
    }

    /// invisible-watermark's own embedder writes one coefficient a block, which JPEG wipes out:
    /// after q90 it cannot read its own mark, so neither can we; without JPEG we read it.
    @Test func weReadTheRefereesMark() throws {
        let folder = try temporaryFolder()
        for seed in 7...9 {
            let (_, original) = try photo(seed, in: folder)
            let marked = folder.appendingPathComponent("referee\(seed).ppm")
            let compressed = folder.appendingPathComponent("referee-q90-\(seed).ppm")
            try markReferee(["embed", original.path, marked.path, payload.hex])
            try markReferee(["jpeg", marked.path, compressed.path, "90"])
            #expect(try read(RGBPicture(ppm: marked)).payload == payload, "photo \(seed)")
            if try markReferee(["decode", compressed.path]) == payload.hex {
                #expect(try read(RGBPicture(ppm: compressed)).payload == payload, "photo \(seed)")
            }
        }
    }

    @Test func anUnmarkedPhotoDoesNotMatch() throws {
        let (original, _) = try photo(10, in: try temporaryFolder())
        let reading = try read(original)
        #expect(!reading.matches(payload))
        #expect(reading.strength < 0.2)
    }
}
