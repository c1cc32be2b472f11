import Foundation
import Testing
import TestSupport

/// Writes a solid picture of `width`×`height` as `name` with Pillow (Debian's python3-pil, so
/// /usr/bin/python3): a few hundred bytes on disk whatever its size.
func pillowPicture(_ name: String, width: Int, height: Int, mode: String = "RGB", in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let options = url.pathExtension == "tif" ? ", compression='tiff_deflate'" : ""
    try tool("/usr/bin/python3", ["-W", "error", "-c", """
        import sys
        from PIL import Image
        Image.MAX_IMAGE_PIXELS = None
        Image.new('\(mode)', (\(width), \(height)), 90).save(sys.argv[1]\(options))
        """, url.path])
    return url
}

/// Pictures with a side over the 32767 pixels GStreamer's videoconvert and videoscale take: they
/// failed with a raw "not-negotiated" dump, or were called damaged. Refused in one line naming
/// the limit; a JPEG kept as a JPEG is still stamped without decoding, at any size it can have.
@Suite struct PictureSizeLimitTests {
    func refusal(_ width: Int, _ height: Int) -> String {
        "the picture is \(width)×\(height) and camstamp decodes pictures of at most 32767 pixels a side "
            + "(a JPEG written as a JPEG at its own size and quality is stamped without decoding, up to 65500); scale it down first, "
            + "e.g. vipsthumbnail --size 32767"
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
            let input = try pillowPicture(item.name, width: item.width, height: item.height,
                                          in: folder.appendingPathComponent("in"))
            let out = folder.appendingPathComponent("out\(index)")
            let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "a"] + item.extra, timeout: 120)
            #expect(result.status == 1, "\(item.name): \(result.stderr)")
            #expect(result.stderr == "camstamp: \(input.path): \(refusal(item.width, item.height))\n"
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
        let sizes = try tool("/usr/bin/python3", ["-c", """
            import sys
            from PIL import Image
            for name in sys.argv[1:]: print(name.split('/')[-1], *Image.open(name).size)
            """, out.appendingPathComponent("wide.jpg").path, out.appendingPathComponent("edge.png").path])
        #expect(String(decoding: sizes, as: UTF8.self) == "wide.jpg 40000 16\nedge.png 32767 10\n")
    }
}
