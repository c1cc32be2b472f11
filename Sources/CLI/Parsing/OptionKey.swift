// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp

/// Typed keys: one per option of a table, carrying its `OptionSpec` and how its text becomes a
/// value. The tables are built from the keys and the builders read values only through them, so a
/// misspelt option is a compile error (not a silent nil) and a table and its builder cannot name
/// different options.

/// What every key has: the option it stands for in the tables.
protocol OptionKey: Sendable {
    var spec: OptionSpec { get }
}

/// A switch such as `--recursive`: read as a Bool.
struct Flag: OptionKey {
    let spec: OptionSpec

    init(_ long: String, short: Character? = nil, help: String) {
        spec = .flag(long, short: short, help: help)
    }
}

/// An option given at most once with a value, read as `Value?` (nil when not given).
struct Single<Value>: OptionKey {
    let spec: OptionSpec
    /// The text and the option's name as messages show it (`--fps`), to the value or a one-line error.
    let parse: @Sendable (String, String) throws -> Value

    init(
        _ long: String, short: Character? = nil, value: String, help: String, default defaultText: String? = nil,
        required: Bool = false, parse: @escaping @Sendable (_ text: String, _ option: String) throws -> Value
    ) {
        spec = .single(long, short: short, value: value, help: help, default: defaultText, required: required)
        self.parse = parse
    }
}

extension Single where Value == String {
    /// An option whose value is kept as typed.
    init(
        _ long: String, short: Character? = nil, value: String, help: String, default defaultText: String? = nil,
        required: Bool = false
    ) {
        self.init(long, short: short, value: value, help: help, default: defaultText, required: required) { text, _ in
            text
        }
    }
}

/// An option that may be repeated, read as every value in command-line order.
struct Repeated<Value>: OptionKey {
    let spec: OptionSpec
    let parse: @Sendable (String, String) throws -> Value

    init(
        _ long: String, value: String, help: String,
        parse: @escaping @Sendable (_ text: String, _ option: String) throws -> Value
    ) {
        spec = .repeatable(long, value: value, help: help)
        self.parse = parse
    }
}

extension Repeated where Value == String {
    /// An option whose values are kept as typed.
    init(_ long: String, value: String, help: String) {
        self.init(long, value: value, help: help) { text, _ in text }
    }
}

/// One command line's options, read by key. Each read is recorded so that a test can hold every
/// builder to its table: each option read once, none outside it.
final class OptionValues {
    private let parsed: ParsedArguments
    /// The options read so far, in order (a key read twice appears twice).
    private(set) var read: [OptionSpec] = []

    init(_ parsed: ParsedArguments) { self.parsed = parsed }

    /// The subcommands chosen: `["presets", "show"]`.
    var path: [String] { parsed.path }
    var positionals: [String] { parsed.positionals }
    var helpRequested: Bool { parsed.helpRequested }
    /// Where the option's value came from in the defaults file; nil when the command line gave it.
    func origin(_ key: some OptionKey) -> SettingOrigin? { parsed.origins[key.spec.long] }

    /// The option's text as given, for a message that quotes it; nil when it was not given.
    func text<Value>(_ key: Single<Value>) -> String? { parsed.value(key.spec.long) }

    /// Whether the flag was given.
    func get(_ key: Flag) -> Bool {
        read.append(key.spec)
        return parsed.has(key.spec.long)
    }

    /// The option's value, parsed; nil when it was not given.
    func get<Value>(_ key: Single<Value>) throws -> Value? {
        read.append(key.spec)
        return try locating(key.spec) {
            try parsed.value(key.spec.long).map { try key.parse($0, key.spec.displayName) }
        }
    }

    /// Every value of the option, parsed, in command-line order.
    func get<Value>(_ key: Repeated<Value>) throws -> [Value] {
        read.append(key.spec)
        return try locating(key.spec) {
            try parsed.values(key.spec.long).map { try key.parse($0, key.spec.displayName) }
        }
    }

    /// `body`'s error, for a value from the defaults file, as one line naming the file, the line
    /// and the key: the user fixes it there, not on the command line.
    private func locating<T>(_ spec: OptionSpec, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            guard let origin = parsed.origins[spec.long] else { throw error }
            let message = (error as? OptionValueError)?.message ?? "\(error)"
            throw OptionValueError("\(origin): key '\(origin.key)': \(message)")
        }
    }
}

extension CommandSpec {
    /// A command whose table is made of keys; `exclusive` groups name keys too, so a group cannot
    /// name an option the table lacks.
    init(
        _ name: String, overview: String, usage: String? = nil, arguments: [ArgumentSpec] = [],
        keys: [any OptionKey], exclusive: [[any OptionKey]] = [], discussion: String? = nil
    ) {
        self.init(
            name, overview: overview, usage: usage, arguments: arguments, options: keys.map(\.spec),
            exclusive: exclusive.map { $0.map(\.spec.long) }, discussion: discussion)
    }
}
