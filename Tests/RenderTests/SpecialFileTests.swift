// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
@testable import Presets
@testable import Render
import Testing

/// Opens `fifo` for writing (and closes it again) from `delay` on, until stopped, so that a
/// reader blocked in open(2) on it is let go and reads an empty file: code that must never wait
/// on a FIFO then fails its test, where it would otherwise hang the run.
final class FIFORescue: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var opened = false

    init(_ fifo: URL, after delay: TimeInterval = 10) {
        let start = Date()
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopped }) {
                Thread.sleep(forTimeInterval: 0.05)
                guard Date().timeIntervalSince(start) >= delay else { continue }
                let fd = open(fifo.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                if fd >= 0 {
                    lock.withLock { opened = true }
                    close(fd)
                }
            }
        }
    }

    /// Stops it; true when a reader had been waiting (a writer opened the FIFO).
    func stop() -> Bool {
        lock.withLock {
            stopped = true
            return opened
        }
    }
}

@Suite struct SpecialFileTests {
    func fifo(_ name: String) throws -> URL {
        let url = try temporaryFolder().appendingPathComponent(name)
        #expect(mkfifo(url.path, 0o644) == 0)
        return url
    }

    @Test func onlyARegularFileIsOpenedAndAFIFOIsNeverWaitedOn() throws {
        let pipe = try fifo("pipe.json")
        let rescue = FIFORescue(pipe)
        #expect(throws: RegularFile.Failure.notRegular("a FIFO (named pipe)")) { try RegularFile.contents(of: pipe) }
        #expect(!rescue.stop(), "the open waited for a writer")
        #expect(throws: RegularFile.Failure.notRegular("a character device")) {
            try RegularFile.check(URL(fileURLWithPath: "/dev/null"))
        }
        let folder = pipe.deletingLastPathComponent()
        #expect(throws: RegularFile.Failure.folder) { try RegularFile.check(folder) }
        #expect(throws: RegularFile.Failure.missing) { try RegularFile.check(folder.appendingPathComponent("none")) }
        let file = folder.appendingPathComponent("some.json")
        let bytes = Data((0..<200_000).map { UInt8($0 % 251) })
        try bytes.write(to: file)
        #expect(try RegularFile.contents(of: file) == bytes)
        #expect(throws: RegularFile.Failure.tooLarge(bytes: 200_000, limit: 1000)) {
            try RegularFile.contents(of: file, limit: 1000)
        }
    }

    /// The batch reads a photo's first bytes, then the rest into one buffer sized when it was
    /// opened: what it read is kept in front, what the file gained since is read too (its buffer
    /// grown), and a file grown past the limit still fails.
    @Test func theRestOfAFileFollowsWhatWasReadAndWhatItGainedSinceItWasOpened() throws {
        let file = try temporaryFolder().appendingPathComponent("photo.jpg")
        let bytes = Data((0..<100_000).map { UInt8($0 % 251) })
        let more = Data((0..<300_000).map { UInt8($0 % 241) })
        try bytes.write(to: file)
        func append(_ data: Data) throws {
            let handle = try FileHandle(forWritingTo: file)
            try handle.seekToEnd()
            try handle.write(contentsOf: data)
            try handle.close()
        }
        let opened = try RegularFile(opening: file)
        let head = try opened.read(upTo: 64)
        try append(more)
        #expect(try opened.readAll(after: head) == bytes + more)
        let again = try RegularFile(opening: file)
        #expect(try again.readAll() == bytes + more)
        let limited = try RegularFile(opening: file)
        try append(more)
        #expect(throws: RegularFile.Failure.tooLarge(bytes: 450_001, limit: 450_000)) {
            try limited.readAll(limit: 450_000)
        }
        // A prefix longer than the file said when opened (it was rewritten shorter) is kept whole.
        let long = Data((0..<200_000).map { UInt8($0 % 239) })
        let small = file.deletingLastPathComponent().appendingPathComponent("small.jpg")
        try Data([1, 2, 3]).write(to: small)
        #expect(try RegularFile(opening: small).readAll(after: long) == long + Data([1, 2, 3]))
    }

    /// What a preset's checks see only at load time: the renderer itself, handed a FIFO (a file
    /// replaced after the preset was checked), refuses it without opening it blocking.
    @Test func theRendererRefusesAFIFOAsAnImageOrAFontFile() throws {
        let renderer = try makeRenderer()
        let logo = try fifo("logo.png")
        var rescue = FIFORescue(logo)
        #expect(
            throws: RenderError.imageUnreadable(
                logo,
                reason: "it is a FIFO (named pipe), not a regular file; "
                    + "give the path of a PNG or SVG file")
        ) {
            try renderer.render(imageMark(logo), frameWidth: 640, frameHeight: 360)
        }
        #expect(!rescue.stop(), "the image's open waited for a writer")
        let font = try fifo("font.ttf")
        rescue = FIFORescue(font)
        var mark = textMark("a")
        mark.fontFile = font
        #expect(throws: RenderError.fontFileUnusable(font, reason: "is a FIFO (named pipe), not a regular file")) {
            try renderer.render(mark, frameWidth: 640, frameHeight: 360)
        }
        #expect(!rescue.stop(), "the font's open waited for a writer")
    }

    /// librsvg opens the files an SVG links to by itself, blocking: a FIFO there hung the render.
    @Test func anSVGThatLinksToAFIFOIsRefusedAndOneThatLinksToAPNGIsDrawn() throws {
        let renderer = try makeRenderer()
        let pipe = try fifo("linked.png")
        let folder = pipe.deletingLastPathComponent()
        let rescue = FIFORescue(pipe)
        let svg = folder.appendingPathComponent("logo.svg")
        func link(_ name: String) throws {
            let namespaces = #"xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#
            let image = #"<image xlink:href="\#(name)" width="40" height="20"/>"#
            try Data(#"<svg \#(namespaces) width="40" height="20">\#(image)</svg>"#.utf8).write(to: svg)
        }
        try link("linked.png")
        let refused =
            "the SVG refers to \(pipe.path), which is a FIFO (named pipe), not a regular file; "
            + "embed the picture in the SVG or point it at a PNG file"
        #expect(throws: RenderError.imageUnreadable(svg, reason: refused)) {
            try renderer.render(imageMark(svg), frameWidth: 640, frameHeight: 360)
        }
        #expect(!rescue.stop(), "librsvg's open waited for a writer")
        var green = Bitmap(width: 40, height: 20, stride: 160, pixels: [UInt8](repeating: 0, count: 160 * 20))
        for y in 0..<20 { for x in 0..<40 { green[x, y] = .init(red: 0, green: 255, blue: 0, alpha: 255) } }
        try green.writePNG(to: folder.appendingPathComponent("green.png"))
        try link("green.png")
        #expect(
            try renderer.render(imageMark(svg), frameWidth: 640, frameHeight: 360).bitmap[20, 10]
                == .init(red: 0, green: 255, blue: 0, alpha: 255))
    }

    /// References a scanner does not see (a character entity, an internal entity, CSS `@import`,
    /// `xi:include`) reached a FIFO beside the SVG, and librsvg waited on it forever. It now
    /// resolves them in a private folder holding copies of the regular files the scanner found:
    /// the FIFO is not there to be opened.
    @Test(arguments: [
        ##"<image href="&#102;ifo.png" width="9" height="9"/>"##,
        ##"<image href="&#x66;ifo.png" width="9" height="9"/>"##,
        ##"<use href="&#102;ifo.png#a"/>"##,
        ##"<style>@import "fifo.png";</style>"##,
        ##"<rect width="9" height="9" style="fill: url(\66 ifo.png)"/>"##,
        ##"<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="fifo.png" parse="text"/>"##,
    ])
    func anSVGReferenceNoScannerSeesNeverReachesAFIFO(element: String) throws {
        let renderer = try makeRenderer()
        let pipe = try fifo("fifo.png")
        let rescue = FIFORescue(pipe)
        let svg = pipe.deletingLastPathComponent().appendingPathComponent("logo.svg")
        let namespaces = #"xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#
        try Data(#"<svg \#(namespaces) width="9" height="9">\#(element)</svg>"#.utf8).write(to: svg)
        _ = try? renderer.render(imageMark(svg), frameWidth: 640, frameHeight: 360)
        #expect(!rescue.stop(), "librsvg's open waited for a writer")
    }

    @Test func anInternalEntityNamingAFIFOIsNotFollowed() throws {
        let renderer = try makeRenderer()
        let pipe = try fifo("fifo.png")
        let rescue = FIFORescue(pipe)
        let svg = pipe.deletingLastPathComponent().appendingPathComponent("logo.svg")
        let text =
            ##"<!DOCTYPE svg [<!ENTITY f "fifo.png">]>"##
            + ##"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><image href="&f;" width="9" height="9"/></svg>"##
        try Data(text.utf8).write(to: svg)
        _ = try? renderer.render(imageMark(svg), frameWidth: 640, frameHeight: 360)
        #expect(!rescue.stop(), "librsvg's open waited for a writer")
    }

    @Test func theFilesAnSVGRefersToAreFoundInHrefsAndURLs() {
        let text =
            ##"<image href="a.png"/><image xlink:href = 'b c.png'/><use href="#x"/>"##
            + ##"<rect style="fill:url(#g)"/><rect style="fill: url( 'd.png' )"/>"##
            + ##"<image href="data:image/png;base64,AA"/>"##
        #expect(SVGReferences.references(in: text) == ["a.png", "b c.png", "d.png"])
    }
}
