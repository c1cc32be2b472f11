// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
@testable import Presets
import Testing

/// `PathKind`, the one "exists, and is it a folder?" check of presets, marks, batch, shoot and the CLI.
@Suite struct PathKindTests {
    @Test func tellsMissingFoldersAndFilesApartThroughLinks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pathkind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a file.txt")
        try Data("x".utf8).write(to: file)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("to-folder"), withDestinationURL: folder)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("dangling"),
            withDestinationURL: folder.appendingPathComponent("gone"))
        #expect(PathKind(of: folder) == .folder)
        #expect(PathKind(of: file) == .file)
        #expect(PathKind(atPath: "/dev/null") == .file)
        #expect(PathKind(of: folder.appendingPathComponent("to-folder")) == .folder)
        #expect(PathKind(of: folder.appendingPathComponent("dangling")) == .missing)
        #expect(PathKind(of: folder.appendingPathComponent("nothing")) == .missing)
    }
}
