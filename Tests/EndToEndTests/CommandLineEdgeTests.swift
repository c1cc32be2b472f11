// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// What a new user meets first, through the built binary: the version, the help and the man page.
@Suite struct CommandLineEdgeTests {
    @Test func dashCapitalVPrintsTheVersion() throws {
        let short = try camstamp(["-V"]), long = try camstamp(["--version"])
        #expect(short.status == 0 && short.stdout.hasPrefix("camstamp 0.") && short.stdout == long.stdout, "\(short)")
    }

    @Test func theGeneratorsAreInTheHelpAndTheManPage() throws {
        let help = try camstamp(["--help"])
        #expect(help.stdout.contains("camstamp --generate-man | --generate-completion bash|zsh|fish"), "\(help.stdout)")
        #expect(
            help.stdout.contains("--generate-completion bash|zsh|fish\n")
                && help.stdout.contains("Print the completion script"))
        #expect(help.stdout.contains("-V, --version"))
        let man = try camstamp(["--generate-man"]).stdout
        #expect(man.contains("\\fB\\-\\-generate\\-man\\fR") && man.contains("\\fB\\-\\-generate\\-completion\\fR"))
        #expect(man.contains("\\fB\\-V\\fR, \\fB\\-\\-version\\fR"))
    }

    @Test func theManPageHasExamplesAndRendersWithoutWarnings() throws {
        let man = try camstamp(["--generate-man"]).stdout
        let lines = man.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: ".SH EXAMPLES"))
        let end = try #require(lines[(start + 1)...].firstIndex { $0.hasPrefix(".SH ") })
        let commands = lines[start..<end].indices.filter { lines[$0 - 1] == ".nf" }.map {
            lines[$0].replacingOccurrences(of: "\\-", with: "-")
        }
        #expect(commands.count >= 5, "\(commands)")
        for jobs in ["shoot", "batch", "stream", "camera"] {
            #expect(commands.contains { $0.hasPrefix("camstamp \(jobs) ") }, "no \(jobs) example")
        }
        // man(1) renders it without a warning.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("camstamp.1")
        try man.write(to: page, atomically: true, encoding: .utf8)
        let rendered = try run(
            URL(fileURLWithPath: "/usr/bin/man"), ["--warnings", "-l", page.path],
            environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "100", "MAN_KEEP_FORMATTING": "0"])
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        // Bold is overstruck (X, backspace, X): the text without it.
        let text = rendered.stdout.replacing(/.\x{8}/, with: "")
        #expect(
            text.contains("EXAMPLES") && text.contains("camstamp batch IMG_0001.jpg -o IMG_0001-marked.jpg"),
            "\(text)")
    }

    @Test func streamSaysWhatItPublishes() throws {
        for arguments in [["--help"], ["stream", "--help"]] {
            let words = try camstamp(arguments).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let overview = "Stamp live video and record it to files or publish it: RTP, RTMP, SRT, HLS, an RTSP server."
            #expect(words.contains(overview), "\(arguments)")
            #expect(!words.contains("a file or RTP"))
        }
    }

    /// No camera here: the empty list, as a JSON parser and a person expect it.
    @Test(.enabled(if: !hasVideoDevice, "a camera is attached: the list is not empty"))
    func devicesJSONWithoutACameraIsAnEmptyArray() throws {
        let result = try camstamp(["devices", "--json"])
        #expect(result.status == 0 && result.stdout == "[]\n", "\(result.stdout)")
    }
}

/// Whether this machine has a V4L2 device, which `camstamp devices` would list.
let hasVideoDevice = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? [])
    .contains { $0.hasPrefix("video") }
