// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// The manual's recipes run as written: a ```` ```sh recipe ```` block of a docs/ page is one shell
/// script (a server started, camstamp, a client, the server stopped), which ReadmeTests' line by
/// line runner cannot run. Only `PORT` is set, to a free port, for the recipes that take one.
@Suite(.serialized) struct RecipeTests {
    /// The recipe blocks of `text`, each as one script.
    static func recipes(_ text: String) -> [String] {
        text.components(separatedBy: "```sh recipe\n").dropFirst()
            .compactMap { $0.components(separatedBy: "\n```").first }
    }

    static let recipes: [(page: String, script: String)] = ReadmeTests.pages.flatMap { page in
        ((try? ReadmeTests.text(of: page)).map(recipes) ?? []).map { (page, $0) }
    }

    @Test func theStreamPageHasItsRTMPRecipe() {
        #expect(
            Self.recipes.contains { $0.page == "docs/stream.md" && $0.script.contains("rtmp://127.0.0.1:$port/") },
            "\(Self.recipes.map(\.page))")
    }

    @Test func rtmpOnThisMachinePublishesAndAViewerSeesBothStreams() throws {
        let recipe = try #require(Self.recipes.first { $0.script.contains("rtmp://127.0.0.1") })
        let home = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let bin = home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("camstamp"),
            withDestinationURL: camstampBinary)
        let port = try freePort()
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        // A session of its own: what the script left running (it failed half-way) is killed with it.
        let script = try BackgroundProcess(
            "/usr/bin/setsid", ["/bin/sh", "-e", "-c", recipe.script],
            environment: .inherited([
                "HOME": home.path, "PATH": path, "PORT": String(port), "G_DEBUG": "fatal-criticals",
                "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path, "CAMSTAMP_CONFIG": "",
            ]), in: home)
        let result = script.finish(timeout: 60)
        kill(-script.pid, SIGKILL)
        let stdout = result.stdout
        let stderr = result.stderr
        #expect(result.status == 0, "\(recipe.page): the recipe failed: \(stderr)")
        #expect(Set(stdout.split(separator: "\n").map(String.init)) == ["h264", "aac"], "ffprobe saw: \(stdout)")
        // camstamp's summary: the target was reached and given frames.
        #expect(stderr.contains("rtmp://127.0.0.1:\(port)/live/x: ") && stderr.contains(" frames written"), "\(stderr)")
    }
}
