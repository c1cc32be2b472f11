// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The defaults file: found from the environment, read (bounded: it is read at every start) and
// checked against the keys of the command tables, each value keeping its line.
import Foundation
import Presets

/// `$XDG_CONFIG_HOME/camstamp/config.json`, else `~/.config/camstamp/config.json`;
/// `CAMSTAMP_CONFIG=FILE` names another one and `CAMSTAMP_CONFIG=none` reads none (empty is unset).
public struct DefaultsFile: Sendable, Equatable {
    /// The file to read; nil when none is read.
    public var url: URL?
    /// Named by CAMSTAMP_CONFIG: then it must exist.
    public var isExplicit: Bool
    /// Where `~` in a path leads.
    var home: String

    /// The variable that names another file, or `none`.
    public static let variable = "CAMSTAMP_CONFIG"
    /// Larger is not a defaults file: it is read at every start.
    static let sizeLimit = 64 << 10

    /// The file `environment` points at.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        isExplicit = false
        if let named = environment[Self.variable], !named.isEmpty {
            isExplicit = named != "none"
            url = isExplicit ? URL(fileURLWithPath: named) : nil
        } else if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            url = URL(fileURLWithPath: config, isDirectory: true).appendingPathComponent("camstamp/config.json")
        } else if let home = environment["HOME"], !home.isEmpty {
            url = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config/camstamp/config.json")
        } else {
            url = nil
        }
    }

    /// The file's bytes; nil when there is none to read (a missing file is no defaults, unless
    /// CAMSTAMP_CONFIG named it).
    func contents() throws(UsageError) -> Data? {
        guard let url else { return nil }
        do {
            return try RegularFile.contents(of: url, limit: Self.sizeLimit)
        } catch .missing where !isExplicit {
            return nil
        } catch .tooLarge(let bytes, let limit) {
            throw UsageError(
                "\(url.path): is \(bytes) bytes, more than the \(limit) bytes of a defaults file; "
                    + "it holds options, not presets")
        } catch {
            let hint = isExplicit ? "; set \(Self.variable) to a file, or to none to read no defaults file" : ""
            throw UsageError("\(url.path): \(error)\(hint)")
        }
    }

    /// The settings the file holds (none without a file), checked against `keys`.
    func settings(keys: [String: DefaultsKeys.Entry] = DefaultsKeys.table()) throws(UsageError) -> [DefaultSetting] {
        guard let url, let data = try contents() else { return [] }
        return try Self.settings(in: data, file: url.path, keys: keys, home: home)
    }

    /// The settings of a file's `data`; errors name `file`, the line and the key.
    static func settings(
        in data: Data, file: String, keys: [String: DefaultsKeys.Entry], home: String
    ) throws(UsageError) -> [DefaultSetting] {
        let root: JSONNode
        do {
            root = try JSONReader.parse(data)
        } catch {
            throw UsageError("\(file):\(error.line):\(error.column): \(error.message)")
        }
        guard case .object(let members) = root.value else {
            throw UsageError(
                "\(file):\(root.line): a defaults file is an object of options, "
                    + "e.g. {\"presets\": [\"credit\"]} (got \(root.typeName))")
        }
        var settings: [DefaultSetting] = []
        for member in members {
            let origin = SettingOrigin(file: file, line: member.keyLine, key: member.key)
            guard let entry = keys[member.key] else {
                let hint =
                    didYouMean(member.key, in: keys.keys.sorted())
                    ?? "the keys are the long options of the commands ('camstamp config show COMMAND' lists them)"
                throw UsageError("\(origin): unknown key '\(member.key)'; \(hint)")
            }
            let value = try Self.value(member.value, entry: entry, origin: origin, home: home)
            settings.append(DefaultSetting(option: entry.option, value: value, origin: origin))
        }
        return settings
    }
}
