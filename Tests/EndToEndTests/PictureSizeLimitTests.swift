// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Writes a solid picture of `width`×`height` as `name` with Pillow (Debian's python3-pil, so
/// /usr/bin/python3): a few hundred bytes on disk whatever its size.
func pillowPicture(_ name: String, width: Int, height: Int, mode: String = "RGB", in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let options = url.pathExtension == "tif" ? ", compression='tiff_deflate'" : ""
    try tool(
        "/usr/bin/python3",
        [
            "-W", "error", "-c",
            """
            import sys
            from PIL import Image
            Image.MAX_IMAGE_PIXELS = None
            Image.new('\(mode)', (\(width), \(height)), 90).save(sys.argv[1]\(options))
            """, url.path,
        ])
    return url
}

/// Pictures with a side over the 32767 pixels GStreamer's videoconvert and videoscale take: they
/// failed with a raw "not-negotiated" dump, or were called damaged. Refused in one line naming
/// the limit; a JPEG kept as a JPEG is still stamped without decoding, at any size it can have.
@Suite struct PictureSizeLimitTests {
    func refusal(_ width: Int, _ height: Int) -> String {
        "the picture is \(width)×\(height) and camstamp decodes pictures of at most 32767 pixels a side "
            + "(a JPEG written as a JPEG at its own size and quality is stamped without decoding, up to 65500); "
            + "scale it down first, e.g. vipsthumbnail --size 32767"
    }

    @Test func aPictureWithASideOver32767IsRefusedInOneLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(name: String, width: Int, height: Int, extra: [String])] = [
            ("wide.png", 32768, 10, []), ("wider.png", 40000, 10, []), ("tall.png", 2, 100_000, []),
            ("wide.tif", 100_000, 2, []), ("wide.jpg", 40000, 16, ["--reencode"]),
            ("tall.jpg", 16, 40000, ["--format", "png"]),
        ]
        for (index, item) in cases.enumerated() {
            let input = try pillowPicture(
                item.name, width: item.width, height: item.height,
                in: folder.appendingPathComponent("in"))
            let out = folder.appendingPathComponent("out\(index)")
            let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "a"] + item.extra, timeout: 120)
            #expect(result.status == 1, "\(item.name): \(result.stderr)")
            #expect(
                result.stderr == "camstamp: \(input.path): \(refusal(item.width, item.height))\n"
                    + "0 marked, 1 failed, 0 skipped\n")
            #expect(listing(out).isEmpty)
        }
    }

    @Test func aWideJPEGKeptAsAJPEGAndAPictureAt32767AreStamped() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        _ = try pillowPicture("wide.jpg", width: 40000, height: 16, in: input)
        _ = try pillowPicture("edge.png", width: 32767, height: 10, in: input)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "a", "--json"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""path":"spliced""#), "\(result.stdout)")
        let sizes = try tool(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sys
                from PIL import Image
                for name in sys.argv[1:]: print(name.split('/')[-1], *Image.open(name).size)
                """, out.appendingPathComponent("wide.jpg").path, out.appendingPathComponent("edge.png").path,
            ])
        #expect(String(decoding: sizes, as: UTF8.self) == "wide.jpg 40000 16\nedge.png 32767 10\n")
    }
}

/// The memory one photo may take: a 700 KB PNG of 225 megapixels took 1.4 GB to stamp (a TIFF
/// 2.3 GB), so two jobs on a 4 GB machine could be pushed into the OOM killer by two small
/// files. A photo that has to be decoded is refused over --max-pixels (100M by default); a JPEG
/// spliced or stamped in its coefficients is not decoded and is not held to it.
@Suite struct MaxPixelsTests {
    func refusal(_ width: Int, _ height: Int, mega: String, limit: String, give: Int) -> String {
        "the picture is \(width)×\(height) (\(mega) megapixels), more than the \(limit) megapixels a photo may have "
            + "to be decoded (about 10 bytes of memory a pixel); give --max-pixels \(give)M to decode it, "
            + "or scale it down first"
    }

    @Test func aPhotoOfMoreThanAHundredMegapixelsIsRefusedBeforeItIsDecoded() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try pillowPicture("huge.png", width: 15000, height: 15000, mode: "L", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "a"], timeout: 120)
        #expect(result.status == 1, "\(result.stderr)")
        let expected = refusal(15000, 15000, mega: "225", limit: "100", give: 225)
        #expect(
            result.stderr == "camstamp: \(input.path): \(expected)\n"
                + "0 marked, 1 failed, 0 skipped\n")
        #expect(listing(out).isEmpty)
    }

    @Test func maxPixelsMovesTheBoundAndASplicedJPEGIsNotHeldToIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try pillowPicture("six.png", width: 3000, height: 2000, in: folder.appendingPathComponent("png"))
        let low = try camstamp([
            "batch", png.path, "-o", folder.appendingPathComponent("low").path, "--text", "a",
            "--max-pixels", "5.5M",
        ])
        #expect(low.status == 1, "\(low.stderr)")
        #expect(
            low.stderr == "camstamp: \(png.path): \(refusal(3000, 2000, mega: "6", limit: "5.5", give: 6))\n"
                + "0 marked, 1 failed, 0 skipped\n")
        let enough = try camstamp([
            "batch", png.path, "-o", folder.appendingPathComponent("enough").path, "--text", "a",
            "--max-pixels", "6000000",
        ])
        #expect(enough.status == 0, "\(enough.stderr)")
        #expect(listing(folder.appendingPathComponent("enough")) == ["six.png"])

        let jpeg = try pillowPicture("six.jpg", width: 3000, height: 2000, in: folder.appendingPathComponent("jpeg"))
        let spliced = try camstamp([
            "batch", jpeg.path, "-o", folder.appendingPathComponent("spliced").path,
            "--text", "a", "--max-pixels", "1M", "--json",
        ])
        #expect(spliced.status == 0, "\(spliced.stderr)")
        #expect(spliced.stdout.contains(#""path":"spliced""#), "\(spliced.stdout)")
        let decoded = try camstamp([
            "batch", jpeg.path, "-o", folder.appendingPathComponent("decoded").path,
            "--text", "a", "--max-pixels", "1M", "--reencode",
        ])
        #expect(decoded.status == 1, "\(decoded.stderr)")
        #expect(
            decoded.stderr == "camstamp: \(jpeg.path): \(refusal(3000, 2000, mega: "6", limit: "1", give: 6))\n"
                + "0 marked, 1 failed, 0 skipped\n")
    }
}
