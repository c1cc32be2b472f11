// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets
import Synchronization

/// Where shoot, camera and stream get their position: gpsd (`--gps`), else the last one the camera
/// page sent. It fills a frame's template context (`{lat}`, `{place}`, ...) from what it has at
/// that moment, never waiting, and says once when the marks want a position and there is none.
final class LocationFeed: @unchecked Sendable {
    private let option: GPSOption
    private let client: GPSDClient?
    private let report: JobOutput
    private let started = ContinuousClock.now
    private struct State {
        var browser: (fix: GeoFix, at: ContinuousClock.Instant)?
        var warned = false
        var place: (key: [Int], label: String?)?
    }
    private let state = Mutex(State())

    /// A gpsd fix older than this is no longer where the camera is.
    static let gpsdFreshness: Duration = .seconds(10)
    /// A phone's position is sent again as it moves; one this old is dropped.
    static let browserFreshness: Duration = .seconds(600)
    /// How long gpsd has to send a first fix before "no fix" is said.
    static let settling: Duration = .seconds(3)

    /// Follows gpsd as `option` says.
    init(option: GPSOption, report: JobOutput) {
        self.option = option
        self.report = report
        switch option {
        case .off: client = nil
        case .auto: client = GPSDClient(host: "localhost", port: GPSOption.defaultPort)
        case .server(let host, let port):
            let address = option.description
            let warned = Mutex(false)
            client = GPSDClient(host: host, port: port) { why in
                // Once: a gpsd that is down is retried quietly.
                guard
                    warned.withLock({ was in
                        defer { was = true }
                        return !was
                    })
                else { return }
                report.warning("--gps \(address): \(why); retrying while the job runs")
            }
        }
    }

    deinit { client?.stop() }

    func stop() { client?.stop() }

    /// The position now: gpsd's when it has a fresh one, else the camera page's.
    var fix: GeoFix? {
        let now = ContinuousClock.now
        if let gpsd = client?.snapshot, let fix = gpsd.fix, let at = gpsd.reported, now - at < Self.gpsdFreshness {
            return fix
        }
        return state.withLock { state in
            guard let browser = state.browser, now - browser.at < Self.browserFreshness else { return nil }
            return browser.fix
        }
    }

    /// The camera page's position (`POST /api/settings {"location": …}`).
    func setBrowserFix(_ fix: GeoFix?) { state.withLock { $0.browser = fix.map { ($0, .now) } } }

    /// Waits up to `timeout` for gpsd's first fix, when a gpsd is there (a photo taken at once).
    func waitForFix(timeout: Duration = LocationFeed.settling) {
        guard let client else { return }
        let until = ContinuousClock.now + timeout
        while ContinuousClock.now < until, fix == nil {
            let snapshot = client.snapshot
            if snapshot.attempts > 0, !snapshot.connected { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// `context` with the position and the place filled in; the warning when the marks show
    /// `fields` and no position has come (once gpsd had its chance).
    func fill(_ context: inout TemplateContext, fields: Set<LocationField>) {
        let fix = self.fix
        context.location = fix
        if let fix, fields.contains(.place) { context.place = place(near: fix) }
        if fix == nil, !fields.isEmpty { warnOnce(fields) }
    }

    /// Loads the gazetteer on another thread, so the first `{place}` of a live job finds it ready.
    static func prepareGazetteer() {
        DispatchQueue.global(qos: .utility).async { _ = Geotag.place(near: GeoFix(latitude: 0, longitude: 0)!) }
    }

    private func place(near fix: GeoFix) -> String? {
        // A thousandth of a degree (~100 m) moves no city: the last answer stands.
        let key = [Int((fix.latitude * 1000).rounded()), Int((fix.longitude * 1000).rounded())]
        if let cached = state.withLock({ $0.place }), cached.key == key { return cached.label }
        let label = Geotag.place(near: fix)
        state.withLock { $0.place = (key, label) }
        return label
    }

    private func warnOnce(_ fields: Set<LocationField>) {
        let settled: Bool
        if let snapshot = client?.snapshot {
            settled = (snapshot.attempts > 0 && !snapshot.connected) || ContinuousClock.now - started >= Self.settling
        } else {
            settled = true
        }
        guard settled,
            state.withLock({ state in
                defer { state.warned = true }
                return !state.warned
            })
        else {
            return
        }
        let why: String
        switch option {
        case .off: why = "--gps off and no position from the camera page"
        case .auto where client?.snapshot.connected != true:
            why = "no gpsd on localhost:\(GPSOption.defaultPort) (--gps auto)"
        case .server where client?.snapshot.connected != true: why = "gpsd at \(option) is not reachable"
        default: why = "gpsd has no fix yet"
        }
        let names = fields.map { "{\($0.rawValue)}" }.sorted().joined(separator: " ")
        report.warning("gps: no position: \(why); \(names) stay empty or show their fallback")
    }
}
