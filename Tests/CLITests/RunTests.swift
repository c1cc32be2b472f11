// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
@testable import CLI
import Foundation
import Synchronization
import Testing
import TestSupport

/// The command line runs each job on one `JobOutput` and maps what it returns to an exit code.
@Suite struct RunTests {
    @Test func aBatchWithFailuresExitsOneHavingSaidEachFailureOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "camstamp-run-\(UUID().uuidString.prefix(8))")
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try makePicture(inputs.appendingPathComponent("good.jpg"), ["-size", "64x48", "xc:#404040"])
        let bad = inputs.appendingPathComponent("bad.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: bad)

        let events = Mutex<[JobOutput.Event]>([])
        let output = JobOutput(verbosity: .normal) { event in events.withLock { $0.append(event) } }
        let invocation = try parseInvocation([
            "batch", inputs.path, "-o", folder.appendingPathComponent("out").path, "--text", "x",
        ])
        #expect(execute(invocation, output: output) == .failure)
        let diagnostics = events.withLock { $0 }.compactMap { event -> String? in
            if case .diagnostic(let line, _) = event { line } else { nil }
        }
        // The failed photo, then the summary: nothing more, no empty "camstamp: " line.
        #expect(diagnostics.count == 2, "\(diagnostics)")
        #expect(diagnostics.first?.hasPrefix("camstamp: \(bad.path): ") == true)
        #expect(diagnostics.last == "1 marked, 1 failed, 0 skipped")
    }

    @Test func aFailureIsSaidOnceAsAnErrorEvenWhenQuiet() throws {
        let events = Mutex<[JobOutput.Event]>([])
        let output = JobOutput(verbosity: .quiet) { event in events.withLock { $0.append(event) } }
        let invocation = try parseInvocation(["shoot", "-q", "--source", "test", "--preset", "no-such-preset-here"])
        #expect(execute(invocation, output: output) == .usage)
        let all = events.withLock { $0 }
        #expect(all.count == 1)
        if case .diagnostic(let line, .error)? = all.first {
            #expect(line.hasPrefix("camstamp: "))
        } else {
            Issue.record("\(all)")
        }
    }
}
