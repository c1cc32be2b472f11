// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
@testable import Presets
import Testing
@testable import Render

@Suite struct FontTests {
    @Test func bundledFontRegistersAndIsTheDefault() throws {
        try Fonts.registerBundled(directory: bundledFonts)
        try Fonts.registerBundled(directory: bundledFonts)  // a second time does nothing
        let bundled = bundledFonts.standardizedFileURL.path
        let files = Fonts.files(family: "Noto Sans")
        #expect(files.contains { $0.hasPrefix(bundled + "/") }, "fontconfig lists \(files)")
        #expect(Fonts.defaultFamily == "Noto Sans")
        #expect(MarkRenderer().resolvedFamily(nil) == "Noto Sans")
    }

    @Test func missingFontFolderIsAnError() {
        let url = URL(fileURLWithPath: "/nonexistent/fonts")
        #expect(throws: RenderError.fontDirectoryUnusable(url, reason: "no such folder")) {
            try Fonts.registerBundled(directory: url)
        }
    }

    @Test func chineseDateHasNoUnknownGlyphs() throws {
        let renderer = try makeRenderer()
        #expect(renderer.unknownGlyphCount("水印相机 2026年11月30日", family: nil) == 0)
        #expect(renderer.unknownGlyphCount("© 2026 Studio", family: "Noto Sans") == 0)
    }

    @Test func markFontFileIsRegisteredAndUsed() throws {
        let renderer = try makeRenderer()
        var mark = textMark("Bold from a file", size: 40)
        mark.fontFile = bundledFonts.appendingPathComponent("NotoSans-Bold.ttf")
        let rendered = try renderer.render(mark, frameWidth: 640, frameHeight: 360)
        #expect(!rendered.bitmap.isEmpty)
        // Named by file only: the family comes from the file.
        #expect(try Fonts.register(fontFile: mark.fontFile!) == "Noto Sans")

        let folder = try temporaryFolder()
        let fake = folder.appendingPathComponent("fake.ttf")
        try Data("not a font".utf8).write(to: fake)
        mark.fontFile = fake
        #expect(throws: RenderError.fontFileUnusable(fake, reason: "not a font FreeType can read")) {
            try renderer.render(mark, frameWidth: 640, frameHeight: 360)
        }
        mark.fontFile = folder.appendingPathComponent("missing.otf")
        do {
            _ = try renderer.render(mark, frameWidth: 640, frameHeight: 360)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "font file unusable: \(folder.path)/missing.otf: no such file")
        }
    }

    @Test func renderersOnSeparateThreadsAgree() throws {
        try Fonts.registerBundled(directory: bundledFonts)
        var mark = textMark("Parallel 水印 2026", size: 36)
        mark.outline = .init(color: .black, width: 2)
        mark.shadow = .init(color: .black, dx: 2, dy: 2, blur: 3)
        let reference = try MarkRenderer().render(mark, frameWidth: 1280, frameHeight: 720)
        let shared = mark
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let renderer = MarkRenderer()
            for _ in 0..<5 {
                let rendered = try? renderer.render(shared, frameWidth: 1280, frameHeight: 720)
                results.append(rendered == reference)
            }
        }
        #expect(results.all.count == 40 && results.all.allSatisfy { $0 })
    }
}

/// Collects results from several threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Bool] = []
    func append(_ value: Bool) { lock.withLock { values.append(value) } }
    var all: [Bool] { lock.withLock { values } }
}
