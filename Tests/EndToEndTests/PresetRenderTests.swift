// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// `camstamp presets render`: a preset drawn on the sample photo, decoded and looked at.
@Suite struct PresetRenderTests {
    /// A preset of one text mark, bottom-centre on a box, as camera-info draws.
    static func preset(_ text: String, color: String = "#FFFFFFF2", box: String = "#000000B3") -> String {
        """
        {"name": "probe", "marks": [{"text": "\(text)", "size": "6%", "color": "\(color)", "outline": false,
          "box": {"color": "\(box)", "padding": "1%"}, "anchor": "bottom", "margin": "2%"}]}
        """
    }

    static func render(_ arguments: [String], in folder: URL) throws -> RunResult {
        try camstamp(["presets", "render"] + arguments, in: folder)
    }

    @Test func bothOrientationsSideBySideAndTheMarksOnlyWhereThePresetDraws() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A mark that draws nothing (transparent text, no box): the bare sample photo.
        try Self.preset("x", color: "#00000000", box: "#00000000").write(
            to: folder.appendingPathComponent("bare.json"), atomically: true, encoding: .utf8)
        try Self.preset("Sample").write(
            to: folder.appendingPathComponent("mark.json"), atomically: true, encoding: .utf8)
        for name in ["bare", "mark"] {
            let result = try Self.render(["\(name).json", "--size", "300x200"], in: folder)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            #expect(result.stdout == folder.appendingPathComponent("\(name).jpg").path + "\n")
        }
        let bare = try djpeg(folder.appendingPathComponent("bare.jpg"))
        let marked = try djpeg(folder.appendingPathComponent("mark.jpg"))
        // 300×200 landscape, an 8-pixel gap, 200×300 portrait; as tall as the portrait.
        #expect((marked.width, marked.height) == (508, 300))
        let changed = try #require(differingBox(bare, marked, threshold: 40), "the mark changed no pixel")
        // The mark sits at the bottom of each picture: the landscape's bottom ends at row 250.
        #expect(changed.minY > 200, "pixels changed above the pictures' bottom part: \(changed)")
        #expect(changed.minX < 300 && changed.maxX > 308, "not on both pictures: \(changed)")
        let landscape = try Self.render(
            ["mark.json", "--size", "300x200", "--orientation", "landscape", "-o", "l.jpg"], in: folder)
        #expect(landscape.status == 0, "\(landscape.stderr)")
        let portrait = try Self.render(
            ["mark.json", "--size", "300x200", "--orientation", "portrait", "-o", "p.jpg"], in: folder)
        #expect(portrait.status == 0, "\(portrait.stderr)")
        let l = try djpeg(folder.appendingPathComponent("l.jpg")), p = try djpeg(folder.appendingPathComponent("p.jpg"))
        #expect((l.width, l.height, p.width, p.height) == (300, 200, 200, 300))
    }

    @Test func exifAndDateVariablesGetTheSamplePhotosValues() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let texts = [
            ("template", "{exif:Model|none} {date:%Y-%m-%d} {time:%H:%M}"), ("literal", "Sample S1 2026-05-14 17:42"),
            ("fallback", "none 2026-05-14 17:42"),
        ]
        for (name, text) in texts {
            try Self.preset(text).write(
                to: folder.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
            let result = try Self.render(
                ["\(name).json", "--orientation", "landscape", "--size", "360x240"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let template = try djpeg(folder.appendingPathComponent("template.jpg"))
        #expect(
            template == (try djpeg(folder.appendingPathComponent("literal.jpg"))), "{exif:Model} is not the sample's")
        #expect(template != (try djpeg(folder.appendingPathComponent("fallback.jpg"))))
    }

    @Test func anExistingFileIsKeptWithoutOverwriteAndUnknownNamesGetASuggestion() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("preview.jpg")
        try Data("keep me".utf8).write(to: target)
        let refused = try Self.render(["credit", "-o", "preview.jpg", "--size", "120x80"], in: folder)
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(
            refused.stderr
                == "camstamp: \(target.path) already exists; use --overwrite to replace it or -o to write elsewhere\n")
        #expect(try Data(contentsOf: target) == Data("keep me".utf8))
        let replaced = try Self.render(["credit", "-o", "preview.jpg", "--size", "120x80", "--overwrite"], in: folder)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(Array(try Data(contentsOf: target).prefix(2)) == [0xFF, 0xD8])
        // Nothing but the preview is left in the folder: no temporary file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["preview.jpg"])

        // -o naming a folder writes NAME.jpg into it.
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let intoFolder = try Self.render(["logo", "-o", "sub", "--size", "120x80"], in: folder)
        #expect(intoFolder.status == 0 && intoFolder.stdout == sub.appendingPathComponent("logo.jpg").path + "\n")

        let unknown = try Self.render(["credti"], in: folder)
        #expect(
            unknown.status == 64 && unknown.stderr == "camstamp: no preset named 'credti'; did you mean 'credit'?\n")
        let noFolder = try Self.render(["credit", "-o", "missing/p.jpg", "--size", "120x80"], in: folder)
        #expect(noFolder.status == 64 && noFolder.stderr.split(separator: "\n").count == 1, "\(noFolder.stderr)")
        let huge = try Self.render(["credit", "--size", "20000x100"], in: folder)
        #expect(huge.status == 64 && huge.stderr.contains("at most 8000 pixels a side"), "\(huge.stderr)")
        let stdout = try Self.render(["logo", "-o", "-", "--size", "120x80"], in: folder)
        #expect(stdout.status == 0 && Array(stdout.output.prefix(2)) == [0xFF, 0xD8] && stdout.stderr.isEmpty)
    }

    @Test func presetsListPicturesWritesNoEscapesIntoAPipeAndShowsThemOnAKittyTerminal() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["TERM": "xterm-kitty", "XDG_CACHE_HOME": folder.path, "XDG_CONFIG_HOME": folder.path]
        let piped = try camstamp(["presets", "list", "--pictures"], environment: environment)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.output.contains(0x1B), "an escape sequence went into a pipe")
        let previews = folder.appendingPathComponent("camstamp/previews")
        let lines = piped.stdout.split(separator: "\n")
        #expect(lines.count == 6 && lines.allSatisfy { $0.hasSuffix(".jpg") && $0.contains(previews.path) })
        #expect(piped.stderr.contains("this terminal shows no pictures"))
        for name in ["credit", "timestamp", "camera-info"] {
            #expect(try djpeg(previews.appendingPathComponent("\(name).jpg")).width > 480)
        }
        // script(1) gives camstamp a pseudo-terminal for stdout.
        let command = "\(camstampBinary.path) presets list --pictures"
        let terminal = try runProcess(
            "/usr/bin/script", ["-qec", command, "/dev/null"], environment: .inherited(environment), timeout: 120)
        #expect(terminal.status == 0, "\(terminal.stderr)")
        #expect(terminal.stdout.components(separatedBy: "\u{1B}_Ga=T,f=24,").count == 7, "not one picture a preset")
        #expect(terminal.stdout.contains("credit       Copyright line bottom-right"))
        var foot = environment
        foot["TERM"] = "foot"
        let sixel = try runProcess(
            "/usr/bin/script", ["-qec", command, "/dev/null"], environment: .inherited(foot), timeout: 120)
        #expect(sixel.status == 0 && sixel.stdout.components(separatedBy: "\u{1B}P0;1;0q").count == 7)
    }
}
