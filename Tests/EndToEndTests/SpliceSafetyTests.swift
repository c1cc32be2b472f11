// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing

/// Issue 21 §2: the JPEG fast path (tier 2, the entropy splice) never crashes on what a header
/// says, never writes a file no decoder opens, and never copies damage without the photo's
/// damage warning (which --strict fails).
@Suite struct SpliceSafetyTests {
    /// A grainy 64×256 4:2:0 JPEG from cjpeg, one MCU row a restart interval.
    static func cleanJPEG(
        in folder: URL, width: Int = 64, height: Int = 256, options: [String] = ["-restart", "1"]
    )
        throws -> Data
    {
        var generator = SeededGenerator(state: 21)
        var pixels = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                pixels += [
                    UInt8((x * 3 + Int(generator.next() % 40)) % 256), UInt8((y + Int(generator.next() % 40)) % 256),
                    UInt8((x + y) % 256),
                ]
            }
        }
        let ppm = folder.appendingPathComponent("source-\(width)x\(height).ppm")
        try (Data("P6 \(width) \(height) 255\n".utf8) + Data(pixels)).write(to: ppm)
        return try tool("cjpeg", ["-quality", "90"] + options + [ppm.path])
    }

    /// The offset of the first segment with `marker` (its 0xFF).
    static func segment(_ marker: UInt8, in jpeg: Data) -> Int? {
        var p = 2
        while p + 4 <= jpeg.count, jpeg[p] == 0xFF {
            if jpeg[p + 1] == marker { return p }
            p += 2 + (Int(jpeg[p + 2]) << 8 | Int(jpeg[p + 3]))
        }
        return nil
    }

    /// Every output the batch called marked opens in djpeg without a warning.
    func checkMarkedOutputsDecode(_ result: RunResult) throws {
        for line in result.stdout.split(separator: "\n") {
            guard let item = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                item["status"] as? String == "marked", let output = item["output"] as? String
            else { continue }
            #expect(throws: Never.self, "\(output), called marked (\(item["path"] ?? "")), does not decode") {
                try tool("djpeg", ["-outfile", "/dev/null", output])
            }
        }
    }

    /// A SOF component's quantisation-table selector of 0x40 or 0x80 (libjpeg reads the byte as
    /// it is, and checks it only once decoding starts) used to index past libjpeg's four slots
    /// and crash the batch (signal 11, most runs). Each such photo fails in one line now.
    @Test func aQuantisationSelectorOutOfRangeFailsInOneLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = try Self.cleanJPEG(in: folder)
        let sof = try #require(Self.segment(0xC0, in: clean))
        var names: [String] = []
        for selector: UInt8 in [0x40, 0x80, 0xC0, 0xFF] {
            for component in 0..<3 {
                var bad = clean
                bad[sof + 10 + 3 * component + 2] = selector
                let name = "q\(String(selector, radix: 16))-\(component).jpg"
                try put(bad, "in/\(name)", in: folder)
                names.append(name)
            }
        }
        let result = try camstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", folder.appendingPathComponent("out").path,
            "--text", "Proof", "--json",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("0 marked, \(names.count) failed, 0 skipped\n"), "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == names.count + 1, "one line a photo, then the summary: \(result.stderr)")
        for name in names {
            #expect(
                lines.contains { $0.hasPrefix("camstamp: \(folder.path)/in/\(name): the picture data is damaged") },
                "\(name)")
        }
    }

    /// A DHT libjpeg refuses as "Bogus Huffman table definition" (an all-ones code: one more DC
    /// code at the longest length; a DC symbol over 15) that the photo's data never needs: the
    /// splice used to copy it into an output djpeg cannot open, called marked. Now the photo
    /// fails in one line, and every output batch calls marked decodes.
    @Test func aHuffmanTableLibjpegRefusesIsNeverSpliced() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = try Self.cleanJPEG(in: folder, width: 17, height: 9, options: [])
        try put(clean, "in/clean.jpg", in: folder)
        try put(
            try Self.withDCTable(of: clean) { bits, values in
                // One more code at the longest length: the all-ones code, which no JPEG may use.
                let longest = try #require(bits.lastIndex { $0 > 0 })
                bits[longest] += 1
                values.append(12)
            }, "in/all-ones.jpg", in: folder)
        try put(
            try Self.withDCTable(of: clean) { _, values in values[values.count - 1] = 0x1F }, "in/symbol.jpg",
            in: folder)
        for name in ["all-ones.jpg", "symbol.jpg"] {
            #expect(throws: ToolFailure.self, "\(name) must be a file djpeg refuses") {
                try tool("djpeg", ["-outfile", "/dev/null", folder.appendingPathComponent("in/\(name)").path])
            }
        }
        let result = try camstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", folder.appendingPathComponent("out").path,
            "--text", "Proof", "--json",
        ])
        try checkMarkedOutputsDecode(result)
        #expect(result.status == 1 && result.stderr.hasSuffix("1 marked, 2 failed, 0 skipped\n"), "\(result.stderr)")
        for name in ["all-ones.jpg", "symbol.jpg"] {
            #expect(
                result.stderr.contains(
                    "camstamp: \(folder.path)/in/\(name): the picture data is damaged beyond repair ("
                        + "Bogus Huffman table definition)\n"), "\(result.stderr)")
        }
    }

    /// A DQT of zeros (T.81 wants 1…255; libjpeg decodes it, as a grey picture): the blended
    /// blocks' coefficients were divided by zero and the splice and the coefficient path wrote
    /// Huffman codes djpeg calls corrupt, marked. Such a photo is decoded and encoded again now.
    @Test(arguments: [["-restart", "1"], []])
    func aZeroQuantisationStepIsNeverSpliced(options: [String]) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var jpeg = try Self.cleanJPEG(in: folder, options: options)
        var dqt = try #require(Self.segment(0xDB, in: jpeg))
        while jpeg[dqt + 1] == 0xDB {
            let length = Int(jpeg[dqt + 2]) << 8 | Int(jpeg[dqt + 3])
            var table = dqt + 4
            while table < dqt + 2 + length {
                jpeg.replaceSubrange(table + 1..<table + 65, with: [UInt8](repeating: 0, count: 64))
                table += 65
            }
            dqt += 2 + length
        }
        try put(jpeg, "in/zero.jpg", in: folder)
        try tool("djpeg", ["-outfile", "/dev/null", folder.appendingPathComponent("in/zero.jpg").path])
        let result = try camstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", folder.appendingPathComponent("out").path,
            "--text", "Proof", "--json",
        ])
        #expect(result.status == 0 && result.stdout.contains(#""path":"reencoded""#), "\(result.stdout)")
        try checkMarkedOutputsDecode(result)
    }

    /// A 16-bit DQT whose AC steps are far larger than the data was made for (a quality-100
    /// photo's steps of 1 given as 300): libjpeg decodes it, with every block far out of range.
    /// A blended block's DC was held to ±2047, so its difference from an untouched neighbour
    /// could need 12 bits; libjpeg's encoder writes that unchecked, and the coefficient path
    /// wrote an output djpeg calls corrupt, marked.
    @Test func aBlendedBlockNeverNeedsADCDifferenceBaselineCannotHold() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var jpeg = try Self.cleanJPEG(
            in: folder, width: 200, height: 152, options: ["-quality", "100", "-sample", "1x1"])
        let dqt = try #require(Self.segment(0xDB, in: jpeg))
        let length = Int(jpeg[dqt + 2]) << 8 | Int(jpeg[dqt + 3])
        var tables: [UInt8] = []
        var table = dqt + 4
        while table < dqt + 2 + length {
            tables.append(0x10 | jpeg[table] & 0x0F)
            for k in 1...64 {
                // The DC step stays 1: the blended samples' mean, far out of range, is its value.
                let step = Int(jpeg[table + k]) * (k == 1 ? 1 : 300)
                tables += [UInt8(step >> 8), UInt8(step & 0xFF)]
            }
            table += 65
        }
        let size = tables.count + 2
        jpeg.replaceSubrange(dqt..<dqt + 2 + length, with: [0xFF, 0xDB, UInt8(size >> 8), UInt8(size & 0xFF)] + tables)
        try put(jpeg, "in/steps.jpg", in: folder)
        try tool("djpeg", ["-outfile", "/dev/null", folder.appendingPathComponent("in/steps.jpg").path])
        let result = try camstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", folder.appendingPathComponent("out").path,
            "--text", "Proof", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        try checkMarkedOutputsDecode(result)
    }

    /// A SOF that gives a side of 32768 or more for a small scan (the fuzz's sizes: height
    /// 0x80xx, width 0x80xx or 0xFFxx): libjpeg finds the data too short, then GStreamer's
    /// pipeline refuses the size, which used to be the photo's failure, raw ("GstAppSrc:encoded:
    /// Internal data stream error ... not-negotiated"). Now one line says the data is damaged.
    @Test func aFrameTooLargeForItsDataFailsInOneLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = try Self.cleanJPEG(in: folder)
        let sof = try #require(Self.segment(0xC0, in: clean))
        var names: [String] = []
        for (offset, value): (Int, UInt8) in [(5, 0x80), (7, 0x80), (7, 0xFF)] {
            var bad = clean
            bad[sof + offset] = value
            names.append("sof\(offset)-\(String(value, radix: 16)).jpg")
            try put(bad, "in/\(names.last ?? "")", in: folder)
        }
        let result = try camstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", folder.appendingPathComponent("out").path,
            "--text", "Proof",
        ])
        #expect(result.status == 1 && result.stderr.hasSuffix("0 marked, 3 failed, 0 skipped\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("Gst") && result.stderr.split(separator: "\n").count == 4, "\(result.stderr)")
        for name in names {
            #expect(
                result.stderr.contains(
                    "camstamp: \(folder.path)/in/\(name): the picture data is damaged beyond repair ("),
                "\(result.stderr)")
        }
        // A grey photo under a coloured mark (the logo), which the coefficient path refuses
        // before it reads the data: the damage is still found and said.
        var grey = try Self.cleanJPEG(in: folder, options: ["-grayscale"])
        grey[try #require(Self.segment(0xC0, in: grey)) + 5] = 0xFF
        let input = try put(grey, "grey/tall.jpg", in: folder)
        let logo = try camstamp([
            "batch", input.path, "-o", folder.appendingPathComponent("grey-out").path, "--preset", "logo",
        ])
        #expect(logo.status == 1, "\(logo.stderr)")
        #expect(
            logo.stderr.hasPrefix("camstamp: \(input.path): the picture data is damaged beyond repair (")
                && logo.stderr.split(separator: "\n").count == 2, "\(logo.stderr)")
    }

    /// `jpeg` with its first DHT's first table (cjpeg's DC luminance table) changed by `edit`
    /// (bits[0] is length 1), the segment's length set to match.
    static func withDCTable(of jpeg: Data, _ edit: (inout [UInt8], inout [UInt8]) throws -> Void) throws -> Data {
        let dht = try #require(segment(0xC4, in: jpeg))
        let length = Int(jpeg[dht + 2]) << 8 | Int(jpeg[dht + 3])
        #expect(jpeg[dht + 4] == 0x00, "the first table is DC 0")
        var bits = [UInt8](jpeg[(dht + 5)..<(dht + 21)])
        let count = bits.reduce(0) { $0 + Int($1) }
        var values = [UInt8](jpeg[(dht + 21)..<(dht + 21 + count)])
        try edit(&bits, &values)
        var table = Data([0x00]) + Data(bits) + Data(values)
        table += jpeg[(dht + 21 + count)..<(dht + 2 + length)]
        let header = Data([0xFF, 0xC4, UInt8((table.count + 2) >> 8), UInt8((table.count + 2) & 0xFF)])
        return jpeg.prefix(dht) + header + table + jpeg[(dht + 2 + length)...]
    }

    /// Three bytes of junk before the restart marker of an interval the mark does not reach
    /// (libjpeg: "3 extraneous bytes before marker 0xd6"): the splice used to copy it without a
    /// word. Now the photo has the damage warning the decoding path gives, and --strict fails it.
    @Test func damageAwayFromTheMarksIsSaidAndStrictFailsIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var jpeg = try Self.cleanJPEG(in: folder)
        let markers = (0..<(jpeg.count - 1)).filter { jpeg[$0] == 0xFF && (0xD0...0xD7).contains(jpeg[$0 + 1]) }
        try #require(markers.count == 15)
        jpeg.insert(contentsOf: [0x12, 0x34, 0x56], at: markers[6])
        let input = try put(jpeg, "in/junk.jpg", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "Proof", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "camstamp: \(input.path): warning: the picture data is damaged (Corrupt JPEG data: "
                    + "3 extraneous bytes before marker 0xd6); stamped as far as it decodes\n"), "\(result.stderr)")
        try checkMarkedOutputsDecode(result)
        let strict = try camstamp([
            "batch", input.path, "-o", folder.appendingPathComponent("strict").path, "--text", "Proof",
            "--strict",
        ])
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(
            strict.stderr
                == "camstamp: \(input.path): the picture data is damaged (Corrupt JPEG data: 3 extraneous bytes "
                + "before marker 0xd6); not stamped (--strict)\n0 marked, 1 failed, 0 skipped\n", "\(strict.stderr)")
    }
}
