// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// The connection a `Relay` keeps up for its target: made when a keyframe comes, dropped on a
/// failure, made again with backoff.
protocol RelayLink: AnyObject {
    /// Pushes a sample of the relay's pictures (`isVideo`) or of its sound. False: the
    /// connection no longer takes data.
    func push(_ sample: EncodedSample, isVideo: Bool) -> Bool
    /// Why the connection ended, if it has (checked between samples).
    var failure: String? { get }
    /// Whether the connection is carrying the stream, as far as camstamp can tell.
    var carriesTheStream: Bool { get }
    /// Ends the connection; `endOfStream`: the stream ended, what is queued is sent first.
    func close(endOfStream: Bool)
}

/// RTMP and SRT: a pipeline (`appsrc name=feed ! … sink`) that connects by itself and fails on
/// its bus, fed with the muxed stream.
final class PipelineLink: RelayLink {
    private let target: StreamTarget
    private let pipeline: Pipeline
    private let feed: SampleFeed
    private var origin: UInt64?

    /// Starts `launch` for `target` (not waited for: a live source never prerolls; a failed
    /// connection comes on the bus).
    init(target: StreamTarget, launch: String) throws(MediaError) {
        self.target = target
        pipeline = try Pipeline(launch)
        feed = try SampleFeed(pipeline: pipeline, name: "feed")
        try pipeline.setState(.playing, wait: false)
    }

    /// The launch text of `target`'s pipeline; nil for a target that is not one of these.
    static func launch(for target: StreamTarget) -> String? {
        // The source leaks the oldest buffers while a connection is being made, so memory stays
        // bounded. The feed's queue and leaking are set by SampleFeed.
        let source = "appsrc name=feed ! queue"
        switch target {
        case .rtmp(let url):
            return "\(source) ! rtmp2sink name=out location=\(PipelineTemplate.quote(url)) sync=false"
        case .srt(let host, let port, let listener):
            let address = host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
            let uri = "srt://\(address):\(port)?mode=\(listener ? "listener" : "caller")"
            // A listener streams to whoever is connected and drops data while nobody is.
            return
                "\(source) ! srtsink name=out uri=\(PipelineTemplate.quote(uri)) sync=false wait-for-connection=false"
        default:
            return nil
        }
    }

    func push(_ sample: EncodedSample, isVideo: Bool) -> Bool {
        origin = origin ?? sample.time
        return feed.push(sample, timeOrigin: origin)
    }

    var failure: String? { pipeline.pendingError().map { "\($0)" } }

    /// An SRT caller retries its handshake inside srtsink for 3 s before it fails, without an
    /// error meanwhile: its statistics count packets sent only once a listener answered. An
    /// RTMP server that takes the connection and never answers the handshake (another service
    /// on the port, a proxy, `rtmps://` to a plain server) holds rtmp2sink without an error
    /// until its 5 s timeout: a server that answered has sent bytes (the handshake's, its
    /// window size and the publish's result). Nothing else fails silently.
    var carriesTheStream: Bool {
        switch target {
        case .srt(_, _, false):
            guard let out = try? pipeline.element(named: "out") else { return false }
            return out.structure("stats")?.fields["packets-sent"] != nil
        case .rtmp:
            guard let out = try? pipeline.element(named: "out") else { return false }
            return (out.structure("stats")?.fields["in-bytes-total"].flatMap { UInt64($0) } ?? 0) > 0
        default:
            return true
        }
    }

    func close(endOfStream: Bool) {
        // The end waits for a connection that carries the stream; a caller still knocking would
        // hold the end of the whole stream for as long as its handshake lasts.
        if endOfStream && carriesTheStream {
            feed.endOfStream()
            _ = pipeline.waitForEndOrError(timeout: .seconds(3))
        }
        pipeline.stop()
    }
}
