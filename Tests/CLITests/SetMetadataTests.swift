// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
@testable import CLI
import Foundation
import Testing

/// `batch --set-metadata KEY=TEMPLATE`.
@Suite struct SetMetadataTests {
    func error(_ arguments: String...) -> String? {
        do {
            return "no error: \(try parseCommandLine(arguments))"
        } catch {
            return error.message
        }
    }

    @Test func assignmentsKeepTheirOrderAndTemplate() throws {
        guard
            case .batch(let options) = try parseCommandLine([
                "batch", "in", "-o", "out", "--set-metadata", "Artist={author}", "--set-metadata",
                "copyright=© {date:%Y} = {author}",
            ])
        else {
            Issue.record("not a batch")
            return
        }
        #expect(
            options.setMetadata == [
                MetadataAssignment(key: .artist, template: "{author}"),
                MetadataAssignment(key: .copyright, template: "© {date:%Y} = {author}"),
            ])
    }

    @Test func badAssignmentsAreExactUsageErrors() {
        #expect(
            error("batch", "in", "-o", "out", "--set-metadata", "Autor=me")
                == "unknown key 'Autor' for '--set-metadata': use Artist or Copyright")
        #expect(
            error("batch", "in", "-o", "out", "--set-metadata", "Artist")
                == "--set-metadata expects KEY=VALUE with KEY Artist or Copyright, e.g. Artist='{author}'")
        #expect(
            error("batch", "in", "-o", "out", "--set-metadata", "Artist=x", "--strip-metadata")
                == "'--set-metadata' and '--strip-metadata' cannot be used together")
    }

    @Test func helpNamesTheFlag() throws {
        let text = try #require(helpText(for: ["batch"]))
        #expect(text.contains("--set-metadata K=V"))
    }
}
