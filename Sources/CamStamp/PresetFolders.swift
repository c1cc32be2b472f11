// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// Where `--preset NAME` looks, first match wins: the user's folders, then the shipped presets.
/// User folders are `$XDG_CONFIG_HOME/camstamp/presets`, then `~/.config/camstamp/presets` (the
/// XDG default, also searched when XDG_CONFIG_HOME points elsewhere), so a user's `credit.json`
/// takes the place of the shipped one.
public enum PresetFolders {
    /// Whose presets a folder holds.
    public enum Origin: String, Sendable {
        /// The user's own (XDG config folders).
        case user
        /// Shipped with camstamp.
        case shipped
    }

    /// One folder searched for presets.
    public struct Folder: Sendable, Equatable {
        /// Where it is (it may not exist yet).
        public var url: URL
        /// Whose presets it holds.
        public var origin: Origin
    }

    /// Every folder searched, in order; those that do not exist are kept (they are where to put one).
    public static func all(
        resources: Resources?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [Folder] {
        user(environment: environment).map { Folder(url: $0, origin: .user) }
            + (resources.map { [Folder(url: $0.presets, origin: .shipped)] } ?? [])
    }

    /// The user's preset folders, XDG_CONFIG_HOME's first.
    public static func user(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var folders: [URL] = []
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            folders.append(
                URL(fileURLWithPath: config, isDirectory: true).appendingPathComponent(
                    "camstamp/presets", isDirectory: true))
        }
        if let home = environment["HOME"], !home.isEmpty {
            let fallback = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
                ".config/camstamp/presets", isDirectory: true)
            if !folders.contains(where: { $0.standardizedFileURL.path == fallback.standardizedFileURL.path }) {
                folders.append(fallback)
            }
        }
        return folders
    }

    /// The library over `all(resources:)`.
    public static func library(
        resources: Resources?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> PresetLibrary {
        PresetLibrary(directories: all(resources: resources, environment: environment).map(\.url))
    }
}
