// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
@testable import CLI
import Foundation
import Testing

/// `presets render`, `presets list --previews/--pictures` and `inspect` on the command line, and
/// when a terminal is taken to show pictures.
@Suite struct PreviewCommandLineTests {
    func error(_ arguments: String...) -> String? {
        do {
            _ = try parseCommandLine(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func presetsRenderTakesItsOptions() throws {
        let parsed = try parseCommandLine([
            "presets", "render", "credit", "-o", "/tmp/c.jpg", "--size", "600x400", "--orientation", "portrait",
            "--var", "author=Jo", "--quality", "70", "--overwrite",
        ])
        var expected = PresetRenderOptions(preset: "credit")
        expected.output = URL(fileURLWithPath: "/tmp/c.jpg")
        expected.size = FrameSize(width: 600, height: 400)
        expected.layout = .portrait
        expected.variables = [VariableAssignment(key: "author", value: "Jo")]
        expected.quality = 70
        expected.overwrite = true
        #expect(parsed == .presetsRender(expected))
        guard case .presetsRender(let plain) = try parseCommandLine(["presets", "render", "presets/logo.json"]) else {
            Issue.record("not presets render")
            return
        }
        #expect(plain.outputURL.lastPathComponent == "logo.jpg" && plain.layout == .both)
        #expect((plain.size.width, plain.size.height) == (1200, 800))
    }

    @Test func badValuesAreOneLine() {
        #expect(
            error("presets", "render", "credit", "--orientation", "sideways")
                == "invalid value 'sideways' for '--orientation': expected both, landscape or portrait")
        #expect(
            error("presets", "render", "credit", "--size", "9000x10")
                == "'--size 9000x10' is larger than a preview needs; give at most 8000 pixels a side")
        #expect(error("presets", "render") == "missing NAME for 'camstamp presets render'")
        #expect(
            error("presets", "list", "--pictures", "--json")
                == "'--json' lists the presets for scripts; give it without --previews and --pictures")
        #expect(error("inspect") == "missing at least one FILE for 'camstamp inspect'")
    }

    @Test func plainPresetsListIsUnchangedAndThePicturesAreAskedFor() throws {
        #expect(try parseCommandLine(["presets", "list"]) == .presetsList)
        #expect(
            try parseCommandLine(["presets", "list", "--previews", "/tmp/p"])
                == .presetsPictures(PresetPicturesOptions(folder: URL(fileURLWithPath: "/tmp/p", isDirectory: true))))
        #expect(try parseCommandLine(["presets", "list", "--pictures"]) == .presetsPictures(.init(inline: true)))
        var inspect = InspectOptions(files: [URL(fileURLWithPath: "a.jpg")])
        inspect.json = true
        inspect.presets = ["credit"]
        #expect(try parseInvocation(["inspect", "a.jpg", "--json", "--preset", "credit"]).json)
        #expect(try parseCommandLine(["inspect", "a.jpg", "--json", "--preset", "credit"]) == .inspect(inspect))
    }

    @Test func picturesGoOnlyToATerminalKnownToShowThem() {
        let kitty = ["TERM": "xterm-kitty"]
        #expect(TerminalImages.detect(environment: kitty, isTerminal: true) == .kitty)
        #expect(TerminalImages.detect(environment: kitty, isTerminal: false) == nil, "a pipe got pictures")
        #expect(TerminalImages.detect(environment: ["TERM_PROGRAM": "WezTerm"], isTerminal: true) == .kitty)
        #expect(TerminalImages.detect(environment: ["TERM_PROGRAM": "iTerm.app"], isTerminal: true) == .iTerm2)
        #expect(TerminalImages.detect(environment: ["TERM": "xterm-256color"], isTerminal: true) == nil)
        #expect(TerminalImages.detect(environment: ["TERM": "xterm-kitty", "TMUX": "/tmp/t"], isTerminal: true) == nil)
    }

    @Test func sixelTerminalsAndTheOverrideAreKnown() {
        #expect(TerminalImages.detect(environment: ["TERM": "foot"], isTerminal: true) == .sixel)
        #expect(TerminalImages.detect(environment: ["CAMSTAMP_PICTURES": "sixel"], isTerminal: true) == .sixel)
        #expect(
            TerminalImages.detect(environment: ["CAMSTAMP_PICTURES": "none", "TERM": "foot"], isTerminal: true) == nil)
        #expect(TerminalImages.detect(environment: ["CAMSTAMP_PICTURES": "sixel"], isTerminal: false) == nil)
    }

    @Test func sixelBandsHoldOneRunOfCharactersPerColour() {
        // Two columns six rows high: red on the left, blue on the right.
        let rgb: [UInt8] = (0..<12).flatMap { (i: Int) -> [UInt8] in i % 2 == 0 ? [255, 0, 0] : [0, 0, 255] }
        let picture = TerminalImages.Picture(width: 2, height: 6, rgb: rgb, jpeg: Data())
        #expect(
            TerminalImages.sequence(picture, protocol: .sixel)
                == "\u{1B}P0;1;0q\"1;1;2;6#5;2;0;0;100#180;2;100;0;0#5?~$#180~?-\u{1B}\\\n")
        #expect(Sixel.run([0, 0, 0, 0, 0, 1]) == "!5?@")
    }

    @Test func kittyPicturesAreSentInChunksOf4096() {
        let picture = TerminalImages.Picture(
            width: 40, height: 30, rgb: [UInt8](repeating: 7, count: 3600 * 3), jpeg: Data([0xFF, 0xD8]))
        let text = TerminalImages.sequence(picture, protocol: .kitty)
        let chunks = text.split(separator: "\u{1B}\\").map(String.init).filter { $0.hasPrefix("\u{1B}_G") }
        // 10800 bytes are 14400 base64 characters: four chunks, m=1 on all but the last.
        #expect(chunks.count == 4)
        #expect(chunks[0].hasPrefix("\u{1B}_Ga=T,f=24,s=40,v=30,q=2,m=1;"))
        #expect(chunks[1].hasPrefix("\u{1B}_Gm=1;") && chunks[3].hasPrefix("\u{1B}_Gm=0;"))
        let payload = chunks.map { String($0.split(separator: ";", maxSplits: 1)[1]) }.joined()
        #expect(Data(base64Encoded: payload) == Data(picture.rgb))
        #expect(chunks.dropLast().allSatisfy { $0.split(separator: ";", maxSplits: 1)[1].count == 4096 })
    }
}
