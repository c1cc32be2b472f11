// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Hostile presets and files through the built binary: `presets check` catches what would fail
/// later, a job refuses the same preset at load time (exit 64, one line), and nothing traps.
@Suite struct PresetLimitTests {
    /// One `camstamp:` line and nothing that looks like a Swift trap or a backtrace.
    func expectOneLine(_ result: RunResult, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.stderr == "camstamp: \(expected)\n", sourceLocation: sourceLocation)
        #expect(
            !result.stderr.contains("Fatal error") && !result.stderr.contains("crashed"), sourceLocation: sourceLocation
        )
    }

    @Test func hostilePresetsFailCheckAndBatchWithTheKeyAndRange() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try put(
            PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: nil), "in/photo.jpg", in: folder)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("logo-folder.png"), withIntermediateDirectories: true)
        try put(Data("not a font".utf8), "fake.ttf", in: folder)
        let px = #"use a percentage such as "4%" so the mark follows the picture's size"#
        let cases: [(String, String)] = [
            (
                #"{"marks": [{"text": "a", "offset": [1e300, 0]}]}"#,
                "FILE:1: offset must be between -32767 and 32767 pixels at $.marks[0].offset; \(px)"
            ),
            (
                #"{"marks": [{"text": "a",\#n "margin": "99999999999999999999999%"}]}"#,
                "FILE:2: margin must be at most 1000% of the short side at $.marks[0].margin"
            ),
            (
                #"{"marks": [{"text": "a", "shadow": {"blur": 1e19}}]}"#,
                "FILE:1: blur must be at most 1024 pixels at $.marks[0].shadow.blur; \(px)"
            ),
            (
                #"{"marks": [{"text": "a", "outline": {"width": "1e300"}}]}"#,
                #"FILE:1: width must be a length like 24, "24px" or "4%" at $.marks[0].outline.width"#
            ),
            (
                #"{"marks": [{"text": "a", "box": {"padding": 1e300}}]}"#,
                "FILE:1: padding must be at most 8192 pixels at $.marks[0].box.padding; \(px)"
            ),
            (
                #"{"marks": [{"text": "a", "opacity": 1e300}]}"#,
                "FILE:1: opacity must be between 0 and 1 at $.marks[0].opacity"
            ),
            (
                #"{"marks": [{"image": "logo-folder.png", "width": "10%"}]}"#,
                "FILE:1: image is a folder, not a file: \(folder.path)/logo-folder.png at $.marks[0].image; give the path of a PNG or SVG file"
            ),
            (
                #"{"marks": [{"text": "a", "font-file": "fake.ttf"}]}"#,
                "FILE: font file unusable: \(folder.path)/fake.ttf: not a font FreeType can read at $.marks[0].font-file; give a TrueType or OpenType font file (.ttf, .otf)"
            ),
        ]
        for (index, (json, message)) in cases.enumerated() {
            let preset = try put(Data(json.utf8), "p\(index).json", in: folder)
            let expected = message.replacingOccurrences(of: "FILE", with: preset.path)
            let check = try camstamp(["presets", "check", preset.path])
            #expect(check.status == 64 && check.stdout.isEmpty, "\(json): \(check.status) \(check.stdout)")
            expectOneLine(check, expected)
            let output = folder.appendingPathComponent("out\(index)")
            let batch = try camstamp(["batch", photo.path, "-o", output.path, "--preset", preset.path])
            #expect(batch.status == 64 && batch.stdout.isEmpty, "\(json): \(batch.status)")
            expectOneLine(batch, expected)
            #expect(listing(output).isEmpty)
        }
    }

    /// The adversarial pass's preset, an outline "100%" round a `{frame}` mark, made a 3 s 360p
    /// clip cost ~55 times the plain mark's CPU (a mark image three times the frame's, drawn and
    /// converted each frame, and looked hung). It is refused at load now, one line naming the key
    /// and the range; the widest outline and shadow allowed (10%) mark a clip, the job ends (a
    /// hang guard, not a timing goal), and the outline and the fill are on its frames.
    @Test func aHundredPercentOutlineIsRefusedAndTheWidestAllowedMarksAClip() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("in/clip.mp4")
        try FileManager.default.createDirectory(at: clip.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Clips.mp4(clip, frames: 30, pattern: "solid-color")
        let hostile = try put(
            Data(
                ##"{ "name": "o", "marks": [ { "text": "BIG {frame}", "size": "4%", "color": "#FFFFFF", "outline": {"color":"#000000","width":"100%"} } ] }"##
                    .utf8),
            "outline.json", in: folder)
        let refused = try camstamp([
            "batch", clip.path, "-o", folder.appendingPathComponent("refused").path, "--preset", hostile.path,
        ])
        #expect(refused.status == 64 && refused.stdout.isEmpty)
        expectOneLine(
            refused, "\(hostile.path):1: width must be at most 10% of the short side at $.marks[0].outline.width")
        #expect(listing(folder.appendingPathComponent("refused")).isEmpty)

        let widest = try put(
            Data(
                ##"""
                { "marks": [ { "text": "BIG {frame}", "size": "10%", "color": "#FFFFFF", "anchor": "center",
                               "outline": {"color": "#000000", "width": "10%"},
                               "shadow": {"color": "#000000", "offset": ["10%", "10%"], "blur": "10%"} } ] }
                """##.utf8), "widest.json", in: folder)
        let output = folder.appendingPathComponent("out")
        let started = ContinuousClock.now
        let marked = try camstamp(["batch", clip.path, "-o", output.path, "--preset", widest.path])
        #expect(ContinuousClock.now - started < .seconds(120))
        #expect(marked.status == 0, "\(marked.stderr)")
        let frame = try Clips.luma(output.appendingPathComponent("clip.mp4"), at: 0.5, width: 320, height: 240)
        let values = frame.joined()
        // The clip is a flat grey (luma ~70): the black outline and the white fill are both drawn.
        #expect(values.contains { $0 < 30 } && values.contains { $0 > 200 })
    }

    @Test func renderLimitsAreCaughtByCheckAndAtBatchLoad() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try put(
            PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: nil), "in/photo.jpg", in: folder)
        // A PNG header claiming 30000x30000 (Cairo said "out of memory"); an SVG 1e30 wide.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        let huge = try put(Data(png), "huge.png", in: folder)
        let svg = try put(
            Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="1e30" height="10"/>"#.utf8), "wide.svg", in: folder)
        let tiles = try put(
            Data(#"{"marks": [{"text": "PROOF", "size": "0.1%", "tile": {"gap": 0}}]}"#.utf8), "tiles.json", in: folder)
        let cases: [(String, String)] = [
            (
                #"{"marks": [{"image": "huge.png", "width": "10%"}]}"#,
                "image \(huge.path) is 30000x30000 pixels, more than a mark can use (at most 32767 a side and 64 megapixels) at $.marks[0].image; scale it down, e.g. to 2000 pixels wide"
            ),
            (
                #"{"marks": [{"image": "wide.svg"}]}"#,
                "cannot read image \(svg.path): its size, 1e+30x10 (from its width, height or viewBox), is too far out of proportion to draw (at most 10000:1) at $.marks[0].image; fix the SVG's width, height and viewBox"
            ),
        ]
        for (index, (json, message)) in cases.enumerated() {
            let preset = try put(Data(json.utf8), "p\(index).json", in: folder)
            for arguments in [
                ["presets", "check", preset.path],
                ["batch", photo.path, "-o", folder.appendingPathComponent("out").path, "--preset", preset.path],
            ] {
                let result = try camstamp(arguments)
                #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments): \(result.status)")
                expectOneLine(result, "\(preset.path): \(message)")
            }
        }
        let check = try camstamp(["presets", "check", tiles.path])
        #expect(check.status == 64)
        #expect(
            check.stderr.hasPrefix("camstamp: \(tiles.path): a tiled mark would need ")
                && check.stderr.hasSuffix(
                    " copies on a 1920x1080 picture, more than 10000 at $.marks[0].tile; make the mark larger or its tile gap wider\n"
                ),
            "\(check.stderr)")
        #expect(check.stderr.split(separator: "\n").count == 1)
    }

    @Test func checkWarnsOfCharactersNoFontHasButNotOfEmoji() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let emoji = try put(Data(#"{"marks": [{"text": "🎉 👍🏽 👨‍👩‍👧"}]}"#.utf8), "emoji.json", in: folder)
        let result = try camstamp(["presets", "check", emoji.path])
        #expect(
            result.status == 0 && result.stdout == "\(emoji.path): ok\n" && result.stderr.isEmpty, "\(result.stderr)")
        let odd = try put(Data(#"{"marks": [{"text": "a\ue000"}]}"#.utf8), "odd.json", in: folder)
        let warned = try camstamp(["presets", "check", odd.path])
        #expect(warned.status == 0 && warned.stdout == "\(odd.path): ok\n")
        #expect(
            warned.stderr
                == "camstamp: \(odd.path): warning: no font has a glyph for '\u{E000}' (U+E000), it will show as a box at $.marks[0].text; install a font that has it (fonts-noto-color-emoji for emoji) or name one with \"font\" or \"font-file\"\n"
        )
    }

    @Test func longEXIFValueFailsThatPhotoWithTheReason() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = String(repeating: "M", count: 20_000)
        let photo = try put(
            PhotoFixtures.jpeg(
                width: 320, height: 240, orientation: 1,
                exif: PhotoFixtures.exif(orientation: 1, model: model)), "in/long.jpg", in: folder)
        let good = try put(
            PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: PhotoFixtures.exif(orientation: 1)),
            "in/good.jpg", in: folder)
        let output = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", photo.path, good.path, "-o", output.path, "--text", "{exif:Model}", "--jobs", "1",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "\(photo.path): cannot mark the image: preset 'text': mark text has 20000 characters once its variables are filled in, more than the 4096 a mark can show"
            ),
            "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        #expect(listing(output) == ["good.jpg"])
    }

    /// A credit too long for the EXIF segment cost the photo its whole EXIF (with a warning): the
    /// value is bounded like a mark's text, at load and once expanded.
    @Test func anOverlongCreditIsRefusedNotTheEXIF() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try put(
            PhotoFixtures.jpeg(
                width: 320, height: 240, orientation: 1,
                exif: PhotoFixtures.exif(orientation: 1, model: String(repeating: "M", count: 20_000))),
            "in/long.jpg", in: folder)
        let output = folder.appendingPathComponent("out")
        let literal = try camstamp([
            "batch", photo.path, "-o", output.path, "--text", "x",
            "--set-metadata", "Artist=" + String(repeating: "a", count: 70_000),
        ])
        #expect(literal.status == 64)
        #expect(
            literal.stderr
                == "camstamp: --set-metadata Artist: the value has 70000 characters, more than the 4096 a credit may have\n"
        )
        let expanded = try camstamp([
            "batch", photo.path, "-o", output.path, "--text", "x", "--set-metadata", "Artist={exif:Model}",
        ])
        #expect(expanded.status == 1, "\(expanded.stderr)")
        #expect(
            expanded.stderr.contains(
                "\(photo.path): --set-metadata Artist: the value has 20000 characters once its variables are filled in, more than the 4096 a credit may have"
            ),
            "\(expanded.stderr)")
        #expect(listing(output).isEmpty)
    }

    @Test func photoWithAnMtimeOf2To63Minus1GetsTheCurrentDate() throws {
        // ext4 clamps file times to 2446; tmpfs keeps 2^63-1 seconds. Try the temp folder, then /dev/shm.
        let folder = try temporaryFolder()
        let shm = URL(fileURLWithPath: "/dev/shm/camstamp-e2e-\(UUID().uuidString.prefix(8))")
        defer { for url in [folder, shm] { try? FileManager.default.removeItem(at: url) } }
        let jpeg = try PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: nil)
        var photo = try put(jpeg, "in/photo.jpg", in: folder)
        func setHugeMtime(_ url: URL) -> Bool {
            var times = [timespec(tv_sec: 0, tv_nsec: 0), timespec(tv_sec: Int.max, tv_nsec: 0)]
            guard utimensat(AT_FDCWD, url.path, &times, 0) == 0 else { return false }
            var info = stat()
            return stat(url.path, &info) == 0 && info.st_mtim.tv_sec == Int.max
        }
        if !setHugeMtime(photo) {
            photo = try put(jpeg, "photo.jpg", in: shm)
            try #require(setHugeMtime(photo), "no file system here keeps an mtime of 2^63-1")
        }
        let output = try temporaryFolder("mtime-out")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try camstamp(["batch", photo.path, "-o", output.path, "--text", "{date} {time} {date:%s}"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        // The fallback (the current time) was drawn: the mark changed pixels bottom-right.
        let luma = try lumaPlane(decodeImage(output.appendingPathComponent("photo.jpg")))
        let corner = luma.suffix(80).map { Array($0[160...]) }
        let changed = try #require(changedBounds(corner, background: luma[200][100], tolerance: 30))
        #expect(changed.maxX - changed.minX > 60)
    }
}
