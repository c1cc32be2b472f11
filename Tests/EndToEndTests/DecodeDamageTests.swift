// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing

/// A damaged JPEG that batch decodes (--reencode, another format, a smaller size, a quality of
/// its own) has the damage warning the coefficient path gives: jpegdec, which decodes it, says
/// nothing. And a device or a FIFO as -o is one line, exit 64, before any work.
@Suite struct DecodeDamageTests {
    static let decodingOptions: [[String]] = [
        ["--reencode"], ["--format", "png"], ["--max-size", "32"], ["--quality", "50"],
    ]

    /// Junk before a restart marker (libjpeg: "3 extraneous bytes before marker 0xd6"), and a
    /// scan with bytes flipped in its middle; each with what the coefficient path says of it.
    static func damaged(in folder: URL) throws -> [(URL, String)] {
        var junk = try SpliceSafetyTests.cleanJPEG(in: folder)
        let markers = (0..<(junk.count - 1)).filter { junk[$0] == 0xFF && (0xD0...0xD7).contains(junk[$0 + 1]) }
        try #require(markers.count == 15)
        junk.insert(contentsOf: [0x12, 0x34, 0x56], at: markers[6])
        var scan = try SpliceSafetyTests.cleanJPEG(in: folder, options: [])
        let sos = try #require(SpliceSafetyTests.segment(0xDA, in: scan))
        let middle = sos + (scan.count - sos) / 2
        // Every 37th byte flipped: the Huffman decoder loses step and ends with bytes to spare.
        for offset in stride(from: middle, to: min(middle + 400, scan.count - 2), by: 37)
        where scan[offset - 1] != 0xFF && scan[offset] ^ 0x55 != 0xFF {
            scan[offset] ^= 0x55
        }
        return [
            (try put(junk, "in/junk.jpg", in: folder), "Corrupt JPEG data: 3 extraneous bytes before marker 0xd6"),
            (try put(scan, "in/scan.jpg", in: folder), "an invalid Huffman code in MCU 46"),
        ]
    }

    @Test(arguments: decodingOptions)
    func aDamagedJPEGThatIsDecodedIsSaidAndStrictFailsIt(options: [String]) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (input, damage) in try Self.damaged(in: folder) {
            let out = folder.appendingPathComponent("out-\(input.lastPathComponent)")
            let result = try camstamp(["batch", input.path, "-o", out.path + "/", "--text", "Proof"] + options)
            let options = options + [input.lastPathComponent]
            #expect(result.status == 0, "\(options): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 2 && lines[1] == "1 marked, 0 failed, 0 skipped", "\(options): \(result.stderr)")
            let warning = "camstamp: \(input.path): warning: the picture data is damaged (\(damage)"
            #expect(lines.first?.hasPrefix(warning) == true, "\(options): \(result.stderr)")
            #expect(lines.first?.hasSuffix("); stamped as far as it decodes") == true, "\(options): \(result.stderr)")
            let written = try #require(listing(out).first)
            #expect(throws: Never.self) { try decodeImage(out.appendingPathComponent(written)) }
            let strict = try camstamp(
                [
                    "batch", input.path, "-o", folder.appendingPathComponent("strict").path, "--text", "Proof",
                    "--strict",
                ]
                    + options.dropLast())
            #expect(strict.status == 1, "\(options): \(strict.stderr)")
            #expect(
                strict.stderr.hasSuffix("; not stamped (--strict)\n0 marked, 1 failed, 0 skipped\n"), "\(strict.stderr)"
            )
        }
    }

    @Test func aDeviceOrAFIFOAsTheOutputIsOneLineAndExit64() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try put(try SpliceSafetyTests.cleanJPEG(in: folder), "in/one.jpg", in: folder)
        let fifo = folder.appendingPathComponent("fifo.jpg")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let remedy = "not a folder or a regular file; name a folder, a new photo file (one.jpg) or - for stdout\n"
        let cases: [([String], String)] = [
            (["-o", "/dev/zero"], "camstamp: -o: /dev/zero is a character device, \(remedy)"),
            (["-o", "/dev/zero", "--reencode"], "camstamp: -o: /dev/zero is a character device, \(remedy)"),
            (["-o", "/dev/zero", "--dry-run"], "camstamp: -o: /dev/zero is a character device, \(remedy)"),
            (["-o", fifo.path, "--overwrite"], "camstamp: -o: \(fifo.path) is a FIFO (named pipe), \(remedy)"),
        ]
        for (options, message) in cases {
            let result = try camstamp(["batch", photo.path, "--text", "x"] + options, timeout: 30)
            #expect(result.status == 64 && result.stderr == message, "\(options): \(result.stderr)")
        }
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    }
}
