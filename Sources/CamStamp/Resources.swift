// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Render

/// Where the shipped files live: `presets/`, `pipelines/` and `fonts/`. Found, in this order:
/// 1. `$CAMSTAMP_HOME` when set (and then only there: a wrong setting is an error, not a fallback);
/// 2. beside the running executable or in a folder above it, directly or under `share/camstamp`
///    (`.build/debug/camstamp` in a checkout, `PREFIX/bin/camstamp` → `PREFIX/share/camstamp`);
/// 3. `camstamp/` in the XDG data folders: `$XDG_DATA_HOME` (`~/.local/share`), then each of
///    `$XDG_DATA_DIRS` (`/usr/local/share:/usr/share`), which is where a library user finds an
///    installed camstamp;
/// 4. the source checkout this module was compiled from (a SwiftPM dependency's checkout).
public struct Resources: Sendable {
    /// The folder that holds `presets/`, `pipelines/` and `fonts/`.
    public let root: URL

    /// The shipped files under `root`.
    public init(root: URL) { self.root = root }

    /// The environment variable that names the resource folder and turns the search off.
    public static let environmentVariable = "CAMSTAMP_HOME"

    /// Finds the resource folder, or nil; `notFound` says where it looked.
    public static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = Resources.runningExecutable
    )
        -> Resources?
    {
        searchPath(environment: environment, executable: executable).first(where: holdsResources).map(
            Resources.init(root:))
    }

    /// Finds the resource folder or throws an error that names every place it looked.
    public static func require(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = Resources.runningExecutable
    ) throws(CamStampError) -> Resources {
        guard let found = locate(environment: environment, executable: executable) else {
            throw notFound(environment: environment, executable: executable)
        }
        return found
    }

    /// The folders `locate` tries, in order; only the first holding `pipelines/` is used.
    public static func searchPath(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = Resources.runningExecutable
    ) -> [URL] {
        if let home = environment[environmentVariable], !home.isEmpty {
            return [URL(fileURLWithPath: home, isDirectory: true)]
        }
        var folders: [URL] = []
        var directory = executable.deletingLastPathComponent()
        // From .build/<triple>/debug/camstamp (or PREFIX/bin/camstamp) up to the first folder
        // that has the shipped files.
        for _ in 0..<6 {
            folders += [directory, directory.appendingPathComponent("share/camstamp", isDirectory: true)]
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        folders += dataDirectories(environment: environment).map {
            $0.appendingPathComponent("camstamp", isDirectory: true)
        }
        folders.append(sourceCheckout)
        var seen: Set<String> = []
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The error for a failed search, naming where it looked and what to set.
    public static func notFound(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL = Resources.runningExecutable
    ) -> CamStampError {
        if let home = environment[environmentVariable], !home.isEmpty {
            return .failure(
                "\(environmentVariable)=\(home): no pipelines/ folder there; set \(environmentVariable) to the "
                    + "folder that holds presets/, pipelines/ and fonts/ (share/camstamp of an install) or unset it")
        }
        let beside = executable.deletingLastPathComponent().path
        let data = dataDirectories(environment: environment).map { $0.appendingPathComponent("camstamp").path }
        let places = ["\(beside) and the folders above it (and their share/camstamp)"] + data + [sourceCheckout.path]
        return .failure(
            "cannot find camstamp's shipped presets/, pipelines/ and fonts/; looked in "
                + places.joined(separator: ", ") + "; set \(environmentVariable) to the folder that holds them")
    }

    /// `$XDG_DATA_HOME` (default `~/.local/share`), then `$XDG_DATA_DIRS` (default
    /// `/usr/local/share:/usr/share`), as the XDG Base Directory specification orders them.
    static func dataDirectories(environment: [String: String]) -> [URL] {
        var folders: [URL] = []
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
            folders.append(URL(fileURLWithPath: home, isDirectory: true))
        } else if let home = environment["HOME"], !home.isEmpty {
            folders.append(
                URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true))
        }
        let shared = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        folders += shared.split(separator: ":").filter { $0.hasPrefix("/") }.map {
            URL(fileURLWithPath: String($0), isDirectory: true)
        }
        return folders
    }

    /// The package this file was compiled in (`Sources/CamStamp/Resources.swift` → the root): what
    /// an app that depends on camstamp through SwiftPM finds in its checkout.
    static let sourceCheckout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private static func holdsResources(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("pipelines").path)
    }

    /// The running binary, symlinks resolved (found through /proc/self/exe, so `camstamp` on the
    /// PATH via a symlink still finds its files).
    public static var runningExecutable: URL {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
    }

    /// The shipped presets, `NAME.json` each.
    public var presets: URL { root.appendingPathComponent("presets") }
    /// The shipped pipeline templates, `NAME.pipeline` each.
    public var pipelines: URL { root.appendingPathComponent("pipelines") }
    /// The bundled fonts, registered with fontconfig before the first mark is drawn.
    public var fonts: URL { root.appendingPathComponent("fonts") }
    /// The camera's web page (plain HTML, CSS and JavaScript).
    public var web: URL { root.appendingPathComponent("web") }

    /// The Content-Type a file of the web pages is served with, by its extension.
    static func webContentType(_ name: String) -> String {
        switch (name as NSString).pathExtension {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        default: "image/png"
        }
    }

    /// The shipped pipeline template `NAME.pipeline`.
    public func pipeline(_ name: String) -> URL { pipelines.appendingPathComponent(name + ".pipeline") }

    /// The fonts to register before drawing: `$CAMSTAMP_FONTS` when set, else the shipped `fonts/`
    /// of `resources`; nil when there is neither.
    public static func fontFolder(
        _ resources: Resources?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL? {
        if let folder = environment[Fonts.environmentVariable], !folder.isEmpty {
            return URL(fileURLWithPath: folder, isDirectory: true)
        }
        return resources?.fonts
    }
}
