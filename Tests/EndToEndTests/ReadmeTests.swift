import Foundation
import Testing
import TestSupport

/// The README's commands run as written (issue 8, "the README tells the truth"), with the test
/// camera where they name a webcam: every `camstamp` line of its `sh` blocks, and its example
/// preset through `presets check`.
@Suite struct ReadmeTests {
    /// The README's `camstamp` command lines, each adapted only where this machine differs: the
    /// test camera instead of a webcam, a one-second stream instead of one stopped by Ctrl-C.
    static func commands(_ readme: String) -> [String] {
        var lines: [String] = [], inShell = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inShell = line == "```sh"; continue }
            guard inShell, line.hasPrefix("camstamp ") else { continue }
            // A trailing comment and a background `&` (the README's kill -USR1 example) go.
            var command = String(line.split(separator: "#", maxSplits: 1)[0]).trimmingCharacters(in: .whitespaces)
            if command.hasSuffix("&") { command = String(command.dropLast()).trimmingCharacters(in: .whitespaces) }
            // --control needs a real camera's controls (the test camera has none); `camera` runs
            // until Ctrl-C on a fixed port or a display (CameraTests run it on free ports and Xvfb).
            if command.contains("--control ") || command.hasPrefix("camstamp camera") { continue }
            // Publishing examples name servers elsewhere and fixed ports: LiveTargetTests run each
            // target against servers they start on 127.0.0.1.
            if ["rtmp://", "srt://", "hls:", "--serve "].contains(where: command.contains) { continue }
            // A quoted camera name is one word.
            command = command.replacing(#/--source ("[^"]*"|\S+)/#, with: "--source test")
            var words = command.split(separator: " ").map(String.init)
            if ["shoot", "stream"].contains(words[1]) {
                if !words.contains("--source") { words.insert(contentsOf: ["--source", "test"], at: 2) }
                // A time-lapse of hours becomes two photos a moment apart.
                if let index = words.firstIndex(of: "--count") { words[index + 1] = "2" }
                if let index = words.firstIndex(of: "--interval") { words[index + 1] = "0.2" }
                if words[1] == "stream", !words.contains("--duration") { words += ["--duration", "1"] }
                // Tests send traffic to this machine only: the README's receiver becomes 127.0.0.1.
                words = words.map { word in
                    guard let rest = word.split(separator: "://", maxSplits: 1).last, word.contains("://"),
                          let colon = rest.lastIndex(of: ":") else { return word }
                    return word.prefix(upTo: word.range(of: "://")!.upperBound) + "127.0.0.1" + rest[colon...]
                }
            }
            lines.append(words.joined(separator: " "))
        }
        return lines
    }

    @Test func everyCommandInTheReadmeRunsAsWritten() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = Self.commands(readme)
        #expect(commands.count >= 12, "\(commands)")
        #expect(commands.allSatisfy { !$0.contains("://") || $0.contains("://127.0.0.1:") }, "\(commands)")
        let home = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        // What the commands expect to find: a card and a folder of shots, the example preset.
        for folder in ["card/DCIM/100CAM", "shoot", "phone", "clips", "logos", "bin"] {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        // `phone/` and `clips/` are marked into the same folder: their photos need names of their own.
        for (folder, name) in [("card/DCIM/100CAM", "photo.jpg"), ("shoot", "photo.jpg"), ("phone", "photo.jpg"), ("clips", "still.jpg")] {
            try FileManager.default.copyItem(at: makerNoteFixtures.appendingPathComponent("samsung-preview.jpg"),
                                             to: home.appendingPathComponent(folder).appendingPathComponent(name))
        }
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("presets/logos/camstamp.svg"),
                                         to: home.appendingPathComponent("logos/studio.svg"))
        let json = try #require(readme.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        try json.write(to: home.appendingPathComponent("my.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: home.appendingPathComponent("bin/camstamp"), withDestinationURL: camstampBinary)
        for command in commands {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            process.currentDirectoryURL = home
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment["PATH"] = home.appendingPathComponent("bin").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["G_DEBUG"] = "fatal-criticals"
            process.environment = environment
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(command): \(said)")
        }
    }
}
