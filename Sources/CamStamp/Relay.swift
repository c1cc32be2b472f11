// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Synchronization

/// One network target: its own pipeline (`appsrc name=feed ! … sink`), fed from the encoding
/// pipeline's appsink, rebuilt with backoff whenever the connection fails.
final class Relay: @unchecked Sendable {
    let target: StreamTarget
    private let tap: SampleTap
    private let launch: String
    private let stopRequested = Atomic(false)
    private let lock = NSLock()
    // Only the relay's thread touches these, except `outage` (under the lock).
    private var pipeline: Pipeline?
    private var feed: SampleFeed?
    private var origin: UInt64?
    private var startedAt: ContinuousClock.Instant?
    private var confirmed = false
    private var downSince: ContinuousClock.Instant?
    private var downTotal: Duration = .zero
    private var reconnections = 0
    private var everUp = false
    private var backoff: Duration = Relay.firstBackoff
    private var nextAttempt = ContinuousClock.now

    /// The first wait after a failure; it doubles up to `longestBackoff`.
    static let firstBackoff: Duration = .milliseconds(500)
    static let longestBackoff: Duration = .seconds(2)
    /// A connection that has carried the stream this long without an error counts as back.
    static let confirmation: Duration = .seconds(1)

    init(target: StreamTarget, tap: SampleTap) throws(MediaError) {
        self.target = target
        self.tap = tap
        // The source leaks the oldest buffers while a connection is being made, so memory stays bounded.
        // The feed's queue and leaking are set by SampleFeed.
        let source = "appsrc name=feed ! queue"
        switch target {
        case .rtmp(let url):
            launch = "\(source) ! rtmp2sink name=out location=\(PipelineTemplate.quote(url)) sync=false"
        case .srt(let host, let port, let listener):
            let address = host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
            let uri = "srt://\(address):\(port)?mode=\(listener ? "listener" : "caller")"
            // A listener streams to whoever is connected and drops data while nobody is.
            launch =
                "\(source) ! srtsink name=out uri=\(PipelineTemplate.quote(uri)) sync=false wait-for-connection=false"
        default:
            throw .invalidTemplate("\(target.description) is not a network target")
        }
    }

    func requestStop() { stopRequested.store(true, ordering: .relaxed) }

    /// Ends the tap here if nothing came through it yet (see `Publishing.endIdleTaps`).
    func endIfIdle() { tap.endIfNothingCame() }

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

    /// Carries samples until the encoding pipeline ends (EOS) or a stop is requested.
    func run() {
        while !stopRequested.load(ordering: .relaxed) {
            switch tap.pull(timeout: .milliseconds(200)) {
            case .endOfStream:
                close(endOfStream: true)
                lock.withLock {
                    if let since = downSince {
                        downTotal += ContinuousClock.now - since
                        downSince = nil
                    }
                }
                return
            case .timeout:
                checkHealth()
            case .sample(let sample):
                checkHealth()
                if pipeline == nil {
                    // A new connection starts on a keyframe, or its viewers see grey until the next.
                    guard sample.isKeyframe, ContinuousClock.now >= nextAttempt else { continue }
                    connect()
                    guard pipeline != nil else { continue }
                }
                origin = origin ?? sample.time
                if feed?.push(sample, timeOrigin: origin) == false { dropConnection() }
            }
        }
        close(endOfStream: false)
        lock.withLock {
            if let since = downSince {
                downTotal += ContinuousClock.now - since
                downSince = nil
            }
        }
    }

    private func connect() {
        do {
            let pipeline = try Pipeline(launch)
            feed = try SampleFeed(pipeline: pipeline, name: "feed")
            // Not waited for: a live source never prerolls; a failed connection comes on the bus.
            try pipeline.setState(.playing, wait: false)
            self.pipeline = pipeline
            origin = nil
            let now = ContinuousClock.now
            startedAt = now
            confirmed = false
            // Down until this connection is confirmed (then it is counted from when it was made).
            lock.withLock { if downSince == nil { downSince = now } }
        } catch {
            feed = nil
            pipeline = nil
            lock.withLock { if downSince == nil { downSince = ContinuousClock.now } }
            scheduleRetry()
        }
    }

    /// A bus error ends this connection; one that ran long enough without one counts as back.
    private func checkHealth() {
        guard let pipeline else { return }
        if pipeline.pendingError() != nil {
            dropConnection()
            return
        }
        if !confirmed, let startedAt, ContinuousClock.now - startedAt >= Self.confirmation, carriesTheStream {
            confirmed = true
            backoff = Self.firstBackoff
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

    /// Whether the connection is carrying the stream, as far as the sink can tell. An SRT caller
    /// retries its handshake inside srtsink for 3 s before it fails, without an error meanwhile:
    /// its statistics count packets sent only once a listener answered. An RTMP server that
    /// takes the connection and never answers the handshake (another service on the port, a
    /// proxy, `rtmps://` to a plain server) holds rtmp2sink without an error until its 5 s
    /// timeout: a server that answered has sent bytes (the handshake's, its window size and
    /// the publish's result). Nothing else fails silently.
    private var carriesTheStream: Bool {
        switch target {
        case .srt(_, _, false):
            guard let out = try? pipeline?.element(named: "out") else { return false }
            return out.structure("stats")?.fields["packets-sent"] != nil
        case .rtmp:
            guard let out = try? pipeline?.element(named: "out") else { return false }
            return (out.structure("stats")?.fields["in-bytes-total"].flatMap { UInt64($0) } ?? 0) > 0
        default:
            return true
        }
    }

    private func dropConnection() {
        pipeline?.stop()
        pipeline = nil
        feed = nil
        lock.withLock {
            if downSince == nil { downSince = confirmed ? ContinuousClock.now : (startedAt ?? ContinuousClock.now) }
        }
        confirmed = false
        scheduleRetry()
    }

    private func scheduleRetry() {
        nextAttempt = ContinuousClock.now + backoff
        backoff = min(backoff * 2, Self.longestBackoff)
    }

    private func close(endOfStream: Bool) {
        guard let pipeline else { return }
        // The end waits for a connection that carries the stream; a caller still knocking would
        // hold the end of the whole stream for as long as its handshake lasts.
        if endOfStream && carriesTheStream {
            feed?.endOfStream()
            _ = pipeline.waitForEndOrError(timeout: .seconds(3))
        }
        pipeline.stop()
        self.pipeline = nil
        feed = nil
    }
}
