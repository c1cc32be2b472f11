// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The robustness set: 20 generated photos of 2 MP, marked by us, read after JPEG q90 and q75: by us,
// every payload back; by invisible-watermark, every payload at q90 and at least 56 of 64 bits at q75
// (its cut at one half can tip a bit where a photo leans: how many come back whole is printed).
// The bits back after q50 and a 0.5× resize are printed as they are. Slow (the referee in Python
// on 2 MP photos): not in the unit tier.
import Foundation
import Testing
import TestSupport
import Watermark

@Suite(.needsMarkReferee) struct RobustnessTests {
    @Test func twentyTwoMegapixelPhotosSurviveJPEG90And75() throws {
        let folder = try temporaryFolder()
        var lowest = 100.0, embedSeconds = 0.0, q50Bits = 0, resizeBits = 0, refereeWhole = 0
        for seed in 101...120 {
            let file = folder.appendingPathComponent("photo.ppm")
            try markReferee(["photo", "\(seed)", "1632", "1224", file.path])
            let original = try RGBPicture(ppm: file)
            let payload = MarkPayload(instanceID: "xmp:iid:robustness-\(seed)")
            var marked = original
            let start = ContinuousClock.now
            try embed(payload, into: &marked)
            let elapsed = (ContinuousClock.now - start).components
            embedSeconds += Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            lowest = min(lowest, marked.psnr(against: original))
            try marked.write(ppm: file)
            for quality in ["90", "75"] {
                let compressed = folder.appendingPathComponent("q\(quality).ppm")
                try markReferee(["jpeg", file.path, compressed.path, quality])
                let referee = try #require(MarkPayload(hex: try markReferee(["decode", compressed.path])))
                #expect(referee.agreement(with: payload) >= (quality == "90" ? 64 : 56), "photo \(seed), q\(quality)")
                if quality == "75", referee == payload { refereeWhole += 1 }
                #expect(try read(RGBPicture(ppm: compressed)).payload == payload, "photo \(seed), q\(quality)")
            }
            let q50 = folder.appendingPathComponent("q50.ppm"), half = folder.appendingPathComponent("half.ppm")
            try markReferee(["jpeg", file.path, q50.path, "50"])
            try markReferee(["resize", file.path, half.path, "0.5"])
            q50Bits += try read(RGBPicture(ppm: q50)).agreement(with: payload)
            resizeBits += try read(RGBPicture(ppm: half)).agreement(with: payload)
        }
        #expect(lowest >= 40)
        print(
            "invisible mark, 20 photos of 1632×1224: lowest PSNR \(lowest) dB; embedding \(embedSeconds / 20 / 2.0) s/MP"
                + " (this build); bits back after q50 \(Double(q50Bits) / 12.8) %, after a 0.5× resize "
                + "\(Double(resizeBits) / 12.8) %; invisible-watermark's reader: \(refereeWhole)/20 whole after q75")
    }
}
