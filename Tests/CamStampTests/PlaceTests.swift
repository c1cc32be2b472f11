// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
@testable import CamStamp
import Foundation
import Testing
import TestSupport

/// `TemporaryFiles.moveIntoPlace`, the one placer of batch's photos and clips and shoot's photos.
@Suite struct PlaceTests {
    private func folderWithTemporary() throws -> (folder: URL, temporary: URL) {
        let folder = try temporaryFolder()
        let temporary = folder.appendingPathComponent(".tmp")
        try Data("new".utf8).write(to: temporary)
        return (folder, temporary)
    }

    private let exists = CamStampError.failure("exists")

    @Test func linksIntoPlaceAndLeavesNoTemporary() throws {
        let (folder, temporary) = try folderWithTemporary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("a.jpg")
        try TemporaryFiles.moveIntoPlace(temporary, at: target, replacing: false, exists: exists)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new")
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
    }

    @Test func neverReplacesWithoutReplacing() throws {
        let (folder, temporary) = try folderWithTemporary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("a.jpg")
        try Data("old".utf8).write(to: target)
        #expect(throws: exists) {
            try TemporaryFiles.moveIntoPlace(temporary, at: target, replacing: false, exists: exists)
        }
        #expect(try String(contentsOf: target, encoding: .utf8) == "old")
        try TemporaryFiles.moveIntoPlace(temporary, at: target, replacing: true, exists: exists)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new")
    }

    /// A camera card's FAT has no hard links (link(2) fails with EPERM): batch's own placer refused
    /// every photo there ("cannot write …: Operation not permitted"); shoot's checked and renamed.
    @Test func aFileSystemWithoutHardLinksStillGetsTheFile() throws {
        let (folder, temporary) = try folderWithTemporary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let noLinks: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32 = { _, _ in
            errno = EPERM
            return -1
        }
        let target = folder.appendingPathComponent("a.jpg")
        try TemporaryFiles.moveIntoPlace(temporary, at: target, replacing: false, exists: exists, hardLink: noLinks)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new")
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
        // And an existing file is still never replaced there.
        try Data("newer".utf8).write(to: temporary)
        #expect(throws: exists) {
            try TemporaryFiles.moveIntoPlace(temporary, at: target, replacing: false, exists: exists, hardLink: noLinks)
        }
        #expect(try String(contentsOf: target, encoding: .utf8) == "new")
    }
}
