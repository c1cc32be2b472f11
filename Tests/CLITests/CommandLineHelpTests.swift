// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
@testable import CLI
import Foundation
import Testing

/// camstamp's help: every product flag listed, help before errors, and the exit codes.
extension CommandLineTests {
    // MARK: Help

    static let productFlags: [[String]: [String]] = [
        ["shoot"]: [
            "--source SPEC", "--preset P", "--text T", "--var K=V", "-o", "--size WxH", "--fps N",
            "--warmup N", "--format jpg|png", "--quality Q", "--pipeline FILE",
        ],
        ["batch"]: [
            "INPUT", "-o", "OUTDIR", "--preset P", "--text T", "--var K=V", "--recursive", "--jobs N",
            "--format keep|jpg|png", "--quality Q", "--max-size PX", "--name PATTERN", "--skip-existing",
            "--overwrite", "--strip-gps", "--strip-metadata", "--dry-run", "--json",
        ],
        ["stream"]: [
            "--source SPEC", "--preset P", "--text T", "--to TARGET", "--duration SEC", "--size WxH",
            "--fps N", "--bitrate KBPS", "--sdp FILE", "--snapshot-dir DIR", "--pipeline FILE",
        ],
        ["devices"]: ["--json"],
        ["presets"]: ["list", "show NAME", "check FILE..."],
        []: ["shoot", "batch", "stream", "devices", "presets", "--help", "-h", "--version"],
    ]

    @Test(arguments: Array(productFlags.keys))
    func helpListsEveryProductFlag(path: [String]) throws {
        let text = try #require(helpText(for: path))
        for flag in Self.productFlags[path]! {
            #expect(text.contains(flag), "help of \(path) lacks \(flag)")
        }
        #expect(text.contains("-h, --help"))
        #expect(text.hasPrefix("OVERVIEW: "))
        #expect(text.contains("\nUSAGE: camstamp"))
        #expect(text.contains("\nOPTIONS:\n"))
    }

    @Test(arguments: allCommands)
    func helpFlagOnEveryCommand(path: [String]) throws {
        let expected = try #require(helpText(for: path))
        #expect(try parseCommandLine(path + ["--help"]) == .help(expected))
        #expect(try parseCommandLine(path + ["-h"]) == .help(expected))
    }

    @Test func helpWinsOverOtherErrors() throws {
        #expect(try parse("shoot", "--qualty", "5", "--help") == .help(helpText(for: ["shoot"])!))
        #expect(try parse("stream", "--help") == .help(helpText(for: ["stream"])!))
        #expect(try parse("batch", "-h") == .help(helpText(for: ["batch"])!))
    }

    @Test func helpCommand() throws {
        #expect(try parse("help") == .help(helpText(for: [])!))
        #expect(try parse("help", "batch") == .help(helpText(for: ["batch"])!))
        #expect(try parse("help", "presets", "check") == .help(helpText(for: ["presets", "check"])!))
        #expect(error("help", "bach") == "unknown command 'bach'; did you mean 'batch'?")
    }

    @Test func exitCodes() {
        #expect(ExitCode.success.rawValue == 0)
        #expect(ExitCode.failure.rawValue == 1)
        #expect(ExitCode.usage.rawValue == 64)
        #expect(ExitCode.interrupted.rawValue == 130)
        #expect(ExitCode.terminated.rawValue == 143)
    }
}
