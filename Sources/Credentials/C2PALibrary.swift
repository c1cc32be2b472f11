// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CC2PA
import Foundation

/// What went wrong with a signature or a verification: one line for the user.
package struct CredentialsError: Error, CustomStringConvertible, Sendable {
    package var message: String
    /// The SDK itself is missing or not the pinned version (not the user's files).
    package var isLibrary = false
    /// Why the SDK could not take the parent ingredient with the manifest it carries (an unknown
    /// algorithm, a prerelease claim), in the SDK's words: the parent can still be named only.
    package var parentManifest: String?
    package init(_ message: String, isLibrary: Bool = false) {
        self.message = message
        self.isLibrary = isLibrary
    }
    package var description: String { message }
}

/// c2pa-rs' C library, opened once at the first use. It is opened with dlopen rather than
/// linked: camstamp and the embedding library build and run without it (most jobs never sign),
/// and a missing or wrong library becomes one line saying how to get the right one.
struct C2PALibrary: @unchecked Sendable {
    /// The version of c2pa_c_ffi the declarations in CC2PA/c2pa.h follow: c2pa-python 0.38.1's.
    static let pinned = "c2pa-c-ffi/0.91.3"
    static let install =
        "run `make c2pa` in camstamp's source tree, or set CAMSTAMP_C2PA_LIBRARY to c2pa-python 0.38.1's "
        + "c2pa/libs/libc2pa_c.so"

    let version: c2pa_version_fn
    let error: c2pa_error_fn
    let free: c2pa_free_fn
    let settingsNew: c2pa_settings_new_fn
    let settingsUpdate: c2pa_settings_update_from_string_fn
    let contextBuilderNew: c2pa_context_builder_new_fn
    let contextBuilderSetSettings: c2pa_context_builder_set_settings_fn
    let contextBuilderBuild: c2pa_context_builder_build_fn
    let contextBuilderSetSigner: c2pa_context_builder_set_signer_fn
    let createStream: c2pa_create_stream_fn
    let releaseStream: c2pa_release_stream_fn
    let builderFromContext: c2pa_builder_from_context_fn
    let builderWithDefinition: c2pa_builder_with_definition_fn
    let builderAddIngredient: c2pa_builder_add_ingredient_from_stream_fn
    let builderSign: c2pa_builder_sign_fn
    let builderPlaceholder: c2pa_builder_placeholder_fn
    let builderSetExclusions: c2pa_builder_set_data_hash_exclusions_fn
    let builderUpdateHash: c2pa_builder_update_hash_from_stream_fn
    let builderSignEmbeddable: c2pa_builder_sign_embeddable_fn
    let signerFromInfo: c2pa_signer_from_info_fn
    let readerFromContext: c2pa_reader_from_context_fn
    let readerWithStream: c2pa_reader_with_stream_fn
    let readerJSON: c2pa_reader_json_fn

    /// The library, or why it cannot be had (the same answer every time).
    static func shared() throws(CredentialsError) -> C2PALibrary {
        switch loaded {
        case .success(let library): return library
        case .failure(let error): throw error
        }
    }

    private static let loaded: Result<C2PALibrary, CredentialsError> = Result { () throws(CredentialsError) in
        try C2PALibrary(handle: open())
    }

    /// Where the library is looked for: CAMSTAMP_C2PA_LIBRARY, then beside the binary as `make`
    /// (.build/c2pa/, for .build/debug/camstamp, a link into .build/TRIPLE/debug/) and `make install`
    /// (PREFIX/lib/camstamp/) put it, then the system's library path.
    static func candidates() -> [String] {
        var paths: [String] = []
        if let path = ProcessInfo.processInfo.environment["CAMSTAMP_C2PA_LIBRARY"], !path.isEmpty { paths.append(path) }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for relative in ["../c2pa/libc2pa_c.so", "../../c2pa/libc2pa_c.so", "../lib/camstamp/libc2pa_c.so"] {
            paths.append(executable.appendingPathComponent(relative).standardizedFileURL.path)
        }
        paths.append("libc2pa_c.so")
        return paths
    }

    private static func open() throws(CredentialsError) -> UnsafeMutableRawPointer {
        var reasons: [String] = []
        for path in candidates() {
            if path.hasPrefix("/"), !FileManager.default.fileExists(atPath: path) { continue }
            if let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) { return handle }
            reasons.append(dlerror().map { String(cString: $0) } ?? path)
        }
        let why = reasons.isEmpty ? "not found" : reasons.joined(separator: "; ")
        throw CredentialsError("c2pa: cannot load libc2pa_c.so (\(why)); \(install)", isLibrary: true)
    }

    private init(handle: UnsafeMutableRawPointer) throws(CredentialsError) {
        func symbol<T>(_ name: String, _: T.Type) throws(CredentialsError) -> T {
            guard let pointer = dlsym(handle, name) else {
                throw CredentialsError(
                    "c2pa: libc2pa_c.so has no \(name) (not \(Self.pinned)); \(Self.install)", isLibrary: true)
            }
            return unsafeBitCast(pointer, to: T.self)
        }
        version = try symbol("c2pa_version", c2pa_version_fn.self)
        error = try symbol("c2pa_error", c2pa_error_fn.self)
        free = try symbol("c2pa_free", c2pa_free_fn.self)
        settingsNew = try symbol("c2pa_settings_new", c2pa_settings_new_fn.self)
        settingsUpdate = try symbol("c2pa_settings_update_from_string", c2pa_settings_update_from_string_fn.self)
        contextBuilderNew = try symbol("c2pa_context_builder_new", c2pa_context_builder_new_fn.self)
        contextBuilderSetSettings = try symbol(
            "c2pa_context_builder_set_settings", c2pa_context_builder_set_settings_fn.self)
        contextBuilderBuild = try symbol("c2pa_context_builder_build", c2pa_context_builder_build_fn.self)
        contextBuilderSetSigner = try symbol("c2pa_context_builder_set_signer", c2pa_context_builder_set_signer_fn.self)
        createStream = try symbol("c2pa_create_stream", c2pa_create_stream_fn.self)
        releaseStream = try symbol("c2pa_release_stream", c2pa_release_stream_fn.self)
        builderFromContext = try symbol("c2pa_builder_from_context", c2pa_builder_from_context_fn.self)
        builderWithDefinition = try symbol("c2pa_builder_with_definition", c2pa_builder_with_definition_fn.self)
        builderAddIngredient = try symbol(
            "c2pa_builder_add_ingredient_from_stream", c2pa_builder_add_ingredient_from_stream_fn.self)
        builderSign = try symbol("c2pa_builder_sign", c2pa_builder_sign_fn.self)
        builderPlaceholder = try symbol("c2pa_builder_placeholder", c2pa_builder_placeholder_fn.self)
        builderSetExclusions = try symbol(
            "c2pa_builder_set_data_hash_exclusions", c2pa_builder_set_data_hash_exclusions_fn.self)
        builderUpdateHash = try symbol(
            "c2pa_builder_update_hash_from_stream", c2pa_builder_update_hash_from_stream_fn.self)
        builderSignEmbeddable = try symbol("c2pa_builder_sign_embeddable", c2pa_builder_sign_embeddable_fn.self)
        signerFromInfo = try symbol("c2pa_signer_from_info", c2pa_signer_from_info_fn.self)
        readerFromContext = try symbol("c2pa_reader_from_context", c2pa_reader_from_context_fn.self)
        readerWithStream = try symbol("c2pa_reader_with_stream", c2pa_reader_with_stream_fn.self)
        readerJSON = try symbol("c2pa_reader_json", c2pa_reader_json_fn.self)
        let found = take(version()) ?? "?"
        guard found.hasPrefix(Self.pinned + " ") || found == Self.pinned else {
            throw CredentialsError(
                "c2pa: libc2pa_c.so is \(found), camstamp needs \(Self.pinned); \(Self.install)", isLibrary: true)
        }
    }

    /// A string the library allocated, copied and freed.
    func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { _ = free(pointer) }
        return String(cString: pointer)
    }

    /// The library's last error on this thread, as a CredentialsError that says what was being done.
    func failure(_ doing: String) -> CredentialsError {
        failure(doing, reason: take(error()) ?? "unknown error")
    }

    func failure(_ doing: String, reason: String) -> CredentialsError {
        CredentialsError("\(doing): \(reason)")
    }

    /// The SDK's error without its category ("Other: unknown algorithm" → "unknown algorithm"),
    /// which is no news to a reader; `fallback` when nothing is left.
    static func plain(_ error: String, fallback: String) -> String {
        let category = error.firstIndex(of: ":").map { error[..<$0] }
        let rest =
            category.map { $0.allSatisfy(\.isLetter) } == true ? error.drop { $0 != ":" }.dropFirst() : error[...]
        let plain = rest.trimmingCharacters(in: .whitespaces)
        return plain.isEmpty ? fallback : plain
    }
}
