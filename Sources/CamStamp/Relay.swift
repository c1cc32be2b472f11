// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Synchronization

/// One network target: its connection (`RelayLink`: a pipeline of its own, or a WebRTC session),
/// fed from the encoding pipeline's appsinks, made again with backoff whenever it fails.
final class Relay: @unchecked Sendable {
    let target: StreamTarget
    private let tap: SampleTap
    /// The sound's tap, for a target that takes the sound apart from the pictures (WHIP).
    private let soundTap: SampleTap?
    private let makeLink: () throws -> RelayLink
    private let report: @Sendable (String) -> Void
    private let stopRequested = Atomic(false)
    private let lock = NSLock()
    // Only the relay's thread touches these, except `outage` (under the lock).
    private var link: RelayLink?
    private var startedAt: ContinuousClock.Instant?
    private var confirmed = false
    private var downSince: ContinuousClock.Instant?
    private var downTotal: Duration = .zero
    private var reconnections = 0
    private var everUp = false
    private var backoff: Duration = Relay.firstBackoff
    private var nextAttempt = ContinuousClock.now
    private var lastReported: String?

    /// The first wait after a failure; it doubles up to `longestBackoff`.
    static let firstBackoff: Duration = .milliseconds(500)
    static let longestBackoff: Duration = .seconds(2)
    /// A connection that has carried the stream this long without an error counts as back.
    static let confirmation: Duration = .seconds(1)

    /// A relay to `target` from `tap` (and `soundTap`, for WHIP); `whipToken` is WHIP's Bearer
    /// token; `report` says, once for each new reason, why a connection could not be made.
    init(
        target: StreamTarget, tap: SampleTap, soundTap: SampleTap? = nil, whipToken: String? = nil,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(MediaError) {
        self.target = target
        self.tap = tap
        self.soundTap = soundTap
        self.report = report
        if case .whip = target {
            let withSound = soundTap != nil
            makeLink = {
                try WHIPLink(target: target, token: whipToken, withSound: withSound) { tap.requestKeyframe() }
            }
        } else if let launch = PipelineLink.launch(for: target) {
            makeLink = { try PipelineLink(target: target, launch: launch) }
        } else {
            throw .invalidTemplate("\(target.description) is not a network target")
        }
    }

    func requestStop() { stopRequested.store(true, ordering: .relaxed) }

    /// Ends the taps here if nothing came through them yet (see `Publishing.endIdleTaps`).
    func endIfIdle() {
        tap.endIfNothingCame()
        soundTap?.endIfNothingCame()
    }

    /// Time without a connection, if there was any.
    var outage: Outage? {
        lock.withLock {
            var total = downTotal
            if let downSince { total += ContinuousClock.now - downSince }
            guard total > .zero else { return nil }
            return Outage(
                target: target.description,
                seconds: Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18,
                reconnections: reconnections, everConnected: everUp)
        }
    }

    /// Carries samples until the encoding pipeline ends (EOS) or a stop is requested. With a
    /// sound tap, the pictures are waited for briefly and the sound taken as it has come.
    func run() {
        let wait: Duration = soundTap == nil ? .milliseconds(200) : .milliseconds(10)
        while !stopRequested.load(ordering: .relaxed) {
            switch tap.pull(timeout: wait) {
            case .endOfStream:
                // The sound's last samples, up to its end: its appsink holds the end of the
                // whole stream until they are taken.
                while let soundTap, case .sample(let sample) = soundTap.pull(timeout: .milliseconds(200)) {
                    if link?.push(sample, isVideo: false) == false { dropConnection() }
                }
                finish(endOfStream: true)
                return
            case .timeout:
                checkHealth()
            case .sample(let sample):
                checkHealth()
                if link == nil {
                    // A new connection starts on a keyframe, or its viewers see grey until the next.
                    guard sample.isKeyframe, ContinuousClock.now >= nextAttempt else { continue }
                    connect()
                }
                if link?.push(sample, isVideo: true) == false { dropConnection() }
            }
            while let soundTap, case .sample(let sample) = soundTap.pull(timeout: .zero) {
                if link?.push(sample, isVideo: false) == false { dropConnection() }
            }
        }
        finish(endOfStream: false)
    }

    private func finish(endOfStream: Bool) {
        link?.close(endOfStream: endOfStream)
        link = nil
        lock.withLock {
            if let since = downSince {
                downTotal += ContinuousClock.now - since
                downSince = nil
            }
        }
    }

    private func connect() {
        do {
            link = try makeLink()
            let now = ContinuousClock.now
            startedAt = now
            confirmed = false
            // Down until this connection is confirmed (then it is counted from when it was made).
            lock.withLock { if downSince == nil { downSince = now } }
        } catch {
            link = nil
            lock.withLock { if downSince == nil { downSince = ContinuousClock.now } }
            say("\(error)")
            scheduleRetry()
        }
    }

    /// A failure ends this connection; one that ran long enough without one counts as back.
    private func checkHealth() {
        guard let link else { return }
        if link.failure != nil {
            dropConnection()
            return
        }
        if !confirmed, let startedAt, ContinuousClock.now - startedAt >= Self.confirmation, link.carriesTheStream {
            confirmed = true
            backoff = Self.firstBackoff
            lastReported = nil
            lock.withLock {
                if let since = downSince {
                    // Down until the connection that held was made.
                    if startedAt > since { downTotal += startedAt - since }
                    downSince = nil
                    if everUp { reconnections += 1 }
                }
                everUp = true
            }
        }
    }

    private func dropConnection() {
        if let reason = link?.failure, case .whip = target { say(reason) }
        link?.close(endOfStream: false)
        link = nil
        lock.withLock {
            if downSince == nil { downSince = confirmed ? ContinuousClock.now : (startedAt ?? ContinuousClock.now) }
        }
        confirmed = false
        scheduleRetry()
    }

    /// Says why the connection is down, once for each reason in a row.
    private func say(_ reason: String) {
        guard reason != lastReported else { return }
        lastReported = reason
        report("\(target.description): \(reason); trying again")
    }

    private func scheduleRetry() {
        nextAttempt = ContinuousClock.now + backoff
        backoff = min(backoff * 2, Self.longestBackoff)
    }
}
