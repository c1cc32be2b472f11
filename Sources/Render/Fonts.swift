// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CFontconfig
import Foundation
import Presets
import Synchronization

/// The bundled default font family and the fontconfig registrations Pango sees.
///
/// Pango's font maps cache fontconfig's font set, so fonts must be registered before the first
/// Pango call that needs them. Every registration bumps `generation`; a `MarkRenderer` that sees a
/// new generation rebuilds its own font map, so a font registered on one thread reaches all.
public enum Fonts {
    /// The family used when a mark names none; bundled in `fonts/` (Noto Sans, SIL OFL 1.1).
    public static var defaultFamily: String { "Noto Sans" }

    /// The environment variable that names a font folder to register instead of the bundled one
    /// (read by `Resources.fontFolder`, where the shipped folder is found).
    public static let environmentVariable = "CAMSTAMP_FONTS"

    private struct State {
        var directories: Set<String> = []
        /// Font file path → the family fontconfig reads from it.
        var files: [String: String] = [:]
        var generation = 0
    }

    // Fontconfig's configuration is process-wide: serialize every change to it.
    private static let state = Mutex(State())

    /// Counts registrations; renderers compare it to decide whether their font map is stale.
    static var generation: Int { state.withLock { $0.generation } }

    /// Adds `directory` (the bundled `fonts/` folder) to fontconfig's current configuration
    /// (`FcConfigAppFontAddDir`). Safe to call from any thread; later calls for the same folder do
    /// nothing.
    public static func registerBundled(directory: URL) throws {
        try register(directory: directory)
    }

    static func register(directory: URL) throws(RenderError) {
        let path = directory.standardizedFileURL.path
        guard PathKind(atPath: path) == .folder else {
            throw .fontDirectoryUnusable(directory, reason: "no such folder")
        }
        try state.withLock { (state: inout State) throws(RenderError) in
            guard !state.directories.contains(path) else { return }
            guard fcBytes(path, { FcConfigAppFontAddDir(FcConfigGetCurrent(), $0) }) != 0 else {
                throw .fontDirectoryUnusable(directory, reason: "fontconfig could not add it")
            }
            state.directories.insert(path)
            state.generation += 1
        }
    }

    /// Adds one font file (a mark's `fontFile`) to fontconfig (`FcConfigAppFontAddFile`) and returns
    /// the family name in it, so a mark that names a file but no family still gets that font.
    /// Renderers do this on first use; jobs may call it up front, before starting threads.
    @discardableResult
    public static func register(fontFile: URL) throws(RenderError) -> String {
        let path = fontFile.standardizedFileURL.path
        return try state.withLock { (state: inout State) throws(RenderError) -> String in
            if let family = state.files[path] { return family }
            // fontconfig and FreeType open the file by path, blocking: a FIFO there would wait
            // for a writer forever, so the file is opened (non-blocking) and checked first.
            do throws(RegularFile.Failure) { try RegularFile.check(URL(fileURLWithPath: path)) } catch {
                throw .fontFileUnusable(fontFile, reason: error == .missing ? "no such file" : "\(error)")
            }
            // FcFreeTypeQuery reads the face; nil means FreeType cannot use the file.
            var count: Int32 = 0
            guard let pattern = fcBytes(path, { FcFreeTypeQuery($0, 0, nil, &count) }) else {
                throw .fontFileUnusable(fontFile, reason: "not a font FreeType can read")
            }
            defer { FcPatternDestroy(pattern) }
            var name: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(pattern, "family", 0, &name) == FcResultMatch, let name else {
                throw .fontFileUnusable(fontFile, reason: "the font has no family name")
            }
            let family = String(cString: name)
            guard fcBytes(path, { FcConfigAppFontAddFile(FcConfigGetCurrent(), $0) }) != 0 else {
                throw .fontFileUnusable(fontFile, reason: "fontconfig could not add it")
            }
            state.files[path] = family
            state.generation += 1
            return family
        }
    }

    /// Files fontconfig lists for `family` (`FcFontList`): a diagnostic that shows where a family
    /// comes from, e.g. that the bundled folder is registered.
    static func files(family: String) -> [String] {
        guard let pattern = FcPatternCreate() else { return [] }
        defer { FcPatternDestroy(pattern) }
        _ = fcBytes(family) { FcPatternAddString(pattern, "family", $0) }
        guard let objects = FcObjectSetCreate() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        FcObjectSetAdd(objects, "file")
        guard let set = FcFontList(FcConfigGetCurrent(), pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        var files: [String] = []
        for index in 0..<Int(set.pointee.nfont) {
            var file: UnsafeMutablePointer<FcChar8>?
            if let font = set.pointee.fonts[index], FcPatternGetString(font, "file", 0, &file) == FcResultMatch,
                let file
            {
                files.append(String(cString: file))
            }
        }
        return files
    }

    /// Passes `string` to fontconfig as the NUL-terminated `FcChar8` (UTF-8) it expects.
    private static func fcBytes<T>(_ string: String, _ body: (UnsafePointer<FcChar8>) -> T) -> T {
        let bytes = Array(string.utf8) + [0]
        return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
