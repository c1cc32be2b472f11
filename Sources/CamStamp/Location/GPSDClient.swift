// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets
import Synchronization

/// Follows gpsd's position over its JSON protocol (`?WATCH={"enable":true,"json":true}`, then a
/// TPV report each time the receiver has one), on a thread of its own: a frame only reads the
/// last fix, never waits for the network. A lost connection is retried every `retry`; a line
/// longer than `maxLine` is skipped, so a broken server cannot grow memory.
final class GPSDClient: @unchecked Sendable {
    struct State {
        var fix: GeoFix?
        var reported: ContinuousClock.Instant?
        var connected = false
        /// Why the last connection attempt failed; nil while connected or not tried yet.
        var failure: String?
        var attempts = 0
        var stopping = false
    }

    let host: String
    let port: UInt16
    private let state = Mutex(State())
    private let onFailure: @Sendable (String) -> Void
    private var thread: Thread?
    static let maxLine = 64 * 1024
    static let retry: Duration = .seconds(2)

    /// Starts following gpsd at `host`:`port`. `onFailure` hears each failed connection attempt
    /// (the caller decides whether to say so).
    init(host: String, port: UInt16, onFailure: @escaping @Sendable (String) -> Void = { _ in }) {
        self.host = host
        self.port = port
        self.onFailure = onFailure
        let thread = Thread { [self] in run() }
        thread.name = "camstamp gpsd"
        self.thread = thread
        thread.start()
    }

    /// The last position and when it came, and whether a connection attempt was made yet.
    var snapshot: State { state.withLock { $0 } }

    func stop() { state.withLock { $0.stopping = true } }

    deinit { stop() }

    private var stopping: Bool { state.withLock { $0.stopping } }

    private func run() {
        while !stopping {
            do throws(GPSDError) {
                let socket = try GPSDSocket(host: host, port: port, stop: { [self] in stopping })
                state.withLock {
                    $0.connected = true
                    $0.failure = nil
                    $0.attempts += 1
                }
                try socket.send(#"?WATCH={"enable":true,"json":true}"# + "\n")
                try socket.readLines(maxLength: Self.maxLine) { [self] line in take(line) }
                state.withLock { $0.connected = false }
            } catch {
                state.withLock {
                    $0.connected = false
                    $0.failure = error.description
                    $0.attempts += 1
                }
                if !stopping { onFailure(error.description) }
            }
            let until = ContinuousClock.now + Self.retry
            while !stopping, ContinuousClock.now < until { Thread.sleep(forTimeInterval: 0.05) }
        }
    }

    private func take(_ line: Data) {
        guard let report = Self.parse(line) else { return }
        state.withLock {
            if case .fix(let fix) = report { $0.fix = fix } else { $0.fix = nil }
            $0.reported = .now
        }
    }

    /// A TPV report: its fix, or nil for one that says there is none (mode 0 or 1). Any other
    /// report, or a line that is not JSON, gives nil.
    enum Report: Equatable {
        case fix(GeoFix)
        case noFix
    }

    static func parse(_ line: Data) -> Report? {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
            object["class"] as? String == "TPV"
        else { return nil }
        func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
        guard let mode = number("mode"), mode >= 2, let latitude = number("lat"), let longitude = number("lon") else {
            return .noFix
        }
        // gpsd 3.20 on: altMSL above sea level (alt is its old name), eph the horizontal error.
        let altitude = mode >= 3 ? (number("altMSL") ?? number("alt")) : nil
        let accuracy = number("eph") ?? [number("epx"), number("epy")].compactMap { $0 }.max()
        let time = (object["time"] as? String).flatMap(Self.date)
        guard
            let fix = GeoFix(
                latitude: latitude, longitude: longitude, altitude: altitude, accuracy: accuracy, time: time)
        else { return .noFix }
        return .fix(fix)
    }

    private static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
