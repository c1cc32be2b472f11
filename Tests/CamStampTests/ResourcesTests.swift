// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
@testable import CamStamp
import Foundation
import Testing
import TestSupport

/// Where the shipped files and the user's presets are found, and what is said when they are not.
@Suite struct ResourcesTests {
    /// A folder with `pipelines/` (the marker of a resource folder) at `relative` under `root`.
    func makeResourceFolder(_ relative: String, under root: URL) throws -> URL {
        let folder = root.appendingPathComponent(relative, isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("pipelines"), withIntermediateDirectories: true)
        return folder
    }

    func scratch() throws -> URL {
        let url = try temporaryFolder()
        return url
    }

    @Test func anInstalledBinaryFindsPrefixShareCamstamp() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let share = try makeResourceFolder("usr/share/camstamp", under: root)
        let binary = root.appendingPathComponent("usr/bin/camstamp")
        let found = Resources.locate(
            environment: ["HOME": root.path, "XDG_DATA_DIRS": "/nonexistent"], executable: binary)
        #expect(found?.root.standardizedFileURL.path == share.standardizedFileURL.path)
    }

    @Test func aLibraryUserFindsAnInstallThroughTheXDGDataFolders() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let installed = try makeResourceFolder("opt/share/camstamp", under: root)
        // An app's own binary, far from any camstamp folder.
        let app = URL(fileURLWithPath: "/nonexistent/app/.build/debug/app")
        let environment = [
            "HOME": root.path,
            "XDG_DATA_DIRS": root.appendingPathComponent("empty").path + ":"
                + root.appendingPathComponent("opt/share").path,
        ]
        #expect(
            Resources.locate(environment: environment, executable: app)?.root.standardizedFileURL.path
                == installed.standardizedFileURL.path)
        let local = try makeResourceFolder(".local/share/camstamp", under: root)
        #expect(
            Resources.locate(environment: environment, executable: app)?.root.standardizedFileURL.path
                == local.standardizedFileURL.path,
            "XDG_DATA_HOME (~/.local/share) comes before XDG_DATA_DIRS")
    }

    @Test func camstampHomeIsTheOnlyPlaceWhenSet() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let home = try makeResourceFolder("home", under: root)
        let binary = Resources.sourceCheckout.appendingPathComponent(".build/debug/camstamp")
        #expect(Resources.locate(environment: ["CAMSTAMP_HOME": home.path], executable: binary)?.root.path == home.path)
        let wrong = root.appendingPathComponent("nothing-here").path
        #expect(
            Resources.locate(environment: ["CAMSTAMP_HOME": wrong], executable: binary) == nil,
            "a wrong CAMSTAMP_HOME is not quietly replaced by the checkout")
        #expect(
            throws: CamStampError.failure(
                "CAMSTAMP_HOME=\(wrong): no pipelines/ folder there; set CAMSTAMP_HOME to the folder "
                    + "that holds presets/, pipelines/ and fonts/ (share/camstamp of an install) or unset it")
        ) {
            try Resources.require(environment: ["CAMSTAMP_HOME": wrong], executable: binary)
        }
    }

    @Test func theErrorNamesEveryPlaceItLooked() {
        let environment = ["HOME": "/nonexistent/home", "XDG_DATA_DIRS": "/nonexistent/a:/nonexistent/b"]
        let binary = URL(fileURLWithPath: "/nonexistent/prefix/bin/camstamp")
        let path = Resources.searchPath(environment: environment, executable: binary).map(\.path)
        #expect(
            path.starts(with: [
                "/nonexistent/prefix/bin", "/nonexistent/prefix/bin/share/camstamp",
                "/nonexistent/prefix", "/nonexistent/prefix/share/camstamp",
            ]))
        #expect(
            path.suffix(4) == [
                "/nonexistent/home/.local/share/camstamp", "/nonexistent/a/camstamp", "/nonexistent/b/camstamp",
                Resources.sourceCheckout.path,
            ])
        let message = Resources.notFound(environment: environment, executable: binary).message
        #expect(
            message
                == "cannot find camstamp's shipped presets/, pipelines/ and fonts/; looked in /nonexistent/prefix/bin and "
                + "the folders above it (and their share/camstamp), /nonexistent/home/.local/share/camstamp, /nonexistent/a/camstamp, "
                + "/nonexistent/b/camstamp, \(Resources.sourceCheckout.path); set CAMSTAMP_HOME to the folder that holds them"
        )
    }

    @Test func userPresetFoldersComeFirstXDGConfigHomeThenDotConfig() {
        let shipped = Resources(root: URL(fileURLWithPath: "/usr/share/camstamp"))
        let folders = PresetFolders.all(
            resources: shipped, environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"])
        #expect(
            folders.map(\.url.path) == [
                "/cfg/camstamp/presets", "/home/u/.config/camstamp/presets", "/usr/share/camstamp/presets",
            ])
        #expect(folders.map(\.origin) == [.user, .user, .shipped])
        let plain = PresetFolders.all(
            resources: nil, environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "relative/is/ignored"])
        #expect(plain.map(\.url.path) == ["/home/u/.config/camstamp/presets"])
    }

    @Test func camstampFontsNamesTheFontFolderElseTheShippedOne() {
        let shipped = Resources(root: URL(fileURLWithPath: "/usr/share/camstamp"))
        #expect(Resources.fontFolder(shipped, environment: [:])?.path == "/usr/share/camstamp/fonts")
        #expect(Resources.fontFolder(shipped, environment: ["CAMSTAMP_FONTS": "/opt/fonts"])?.path == "/opt/fonts")
        #expect(Resources.fontFolder(nil, environment: ["CAMSTAMP_FONTS": ""]) == nil)
    }

    @Test func aPresetNotFoundForWantOfTheShippedFilesSaysWhereTheyWereLookedFor() {
        do {
            _ = try MarkSetup.preset(names: ["credit"], text: nil, variables: [], resources: nil)
            Issue.record("credit found without the shipped files")
        } catch {
            #expect(error.kind == .usage)
            #expect(
                error.message.hasPrefix(
                    "no preset named 'credit'; cannot find camstamp's shipped presets/, pipelines/ and fonts/; looked in "
                ),
                "\(error.message)")
        }
        #expect(throws: Resources.notFound()) { try Templates.load(nil, builtIn: "capture", resources: nil) }
    }
}
