// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
internal import Viewfinder

/// `stream --to whip://HOST:PORT/PATH` (WHIP, RFC 9725): the marked pictures (H.264) and sound
/// (Opus) sent over WebRTC to an endpoint that takes an SDP offer by HTTP POST and answers it
/// with `201 Created`, its SDP answer and the session's resource URL, deleted again on stop.
/// The offer carries every candidate (no trickle ICE); only host candidates are gathered (no
/// STUN or TURN server is asked), as for the camera's own WebRTC preview.
final class WHIPLink: RelayLink {
    private let description: String
    private let endpoint: URL
    private let token: String?
    private let pipeline: Pipeline
    private let peer: WebRTCPeer
    private let video: SampleFeed
    private let sound: SampleFeed?
    private var timeline = FeedTimeline()
    /// The session on the endpoint, once it answered; deleted on close.
    private var resource: URL?
    private var negotiated = false
    private var connected = false
    private let keyframes: KeyframeLimit
    private var broken: String?
    private var receiver = ReceiverWatch()

    /// How long the endpoint may take to answer a request, and ICE to gather.
    static let requestTimeout: Duration = .seconds(5)

    /// A link to `target` (`whip://` or `whips://`), sending sound when `withSound`, with `token`
    /// as a Bearer token. The pipeline starts; the offer is made once the first keyframe is in.
    /// `requestKeyframe` asks the encode for a keyframe: when the connection is up (the first
    /// pictures went before it was, and a receiver cannot start on a delta), and whenever the
    /// receiver asks (a PLI), at most once a second.
    init(
        target: StreamTarget, token: String?, withSound: Bool, requestKeyframe: @escaping @Sendable () -> Void
    ) throws(MediaError) {
        guard case .whip(let url) = target, let endpoint = Self.endpoint(url) else {
            throw .invalidTemplate("\(target.description) is not a WHIP endpoint")
        }
        description = target.description
        self.endpoint = endpoint
        self.token = token
        // The pictures as the tee hands them (SPS and PPS before every keyframe); Opus in RTP.
        var launch =
            "webrtcbin name=rtc bundle-policy=max-bundle "
            + "appsrc name=feed ! h264parse ! rtph264pay config-interval=0 aggregate-mode=zero-latency pt=96 "
            + "! application/x-rtp,media=video,encoding-name=H264,payload=96,clock-rate=90000 ! rtc. "
        if withSound {
            launch +=
                "appsrc name=sound ! opusparse ! rtpopuspay pt=111 "
                + "! application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000,encoding-params=(string)2 ! rtc."
        }
        pipeline = try Pipeline(launch)
        video = try SampleFeed(pipeline: pipeline, name: "feed")
        sound = withSound ? try SampleFeed(pipeline: pipeline, name: "sound") : nil
        peer = try WebRTCPeer(pipeline: pipeline, name: "rtc")
        peer.publishOnly()
        let limit = KeyframeLimit(requestKeyframe)
        self.keyframes = limit
        video.onKeyframeRequest { limit.request() }
        try pipeline.setState(.playing, wait: false)
    }

    /// `whip://` as `http://`, `whips://` as `https://`; nil for anything else.
    static func endpoint(_ url: String) -> URL? {
        let lower = url.lowercased()
        let scheme = lower.hasPrefix("whips://") ? "https" : lower.hasPrefix("whip://") ? "http" : nil
        guard let scheme, let colon = url.firstIndex(of: ":") else { return nil }
        return URL(string: scheme + url[colon...])
    }

    func push(_ sample: EncodedSample, isVideo: Bool) -> Bool {
        guard broken == nil else { return false }
        if negotiated && !connected && peer.state == .connected {
            connected = true
            keyframes.request()
        }
        guard let feed = isVideo ? video : sound else { return true }
        guard timeline.push(sample, into: feed, isVideo: isVideo) else { return false }
        // The offer once the first picture and sound have reached webrtcbin (their caps make
        // its formats); meanwhile webrtcbin holds them.
        if !negotiated && !timeline.waitingForKeyframe && peer.hasCaps {
            negotiated = true
            do { try negotiate() } catch {
                broken = "\(error)"
                return false
            }
        }
        return true
    }

    var failure: String? {
        if let broken { return broken }
        if let error = pipeline.pendingError() { return "\(error)" }
        switch peer.state {
        case .failed: return "the WebRTC connection failed"
        case .closed: return "the endpoint closed the WebRTC connection"
        default: break
        }
        guard negotiated, peer.state == .connected else { return nil }
        return receiver.wentSilent(peer) ? "the endpoint stopped receiving (no report for 5 s)" : nil
    }

    var carriesTheStream: Bool { negotiated && broken == nil && peer.state == .connected }

    func close(endOfStream: Bool) {
        if let resource {
            // The session ends on the endpoint too; a server that is gone is not waited for long.
            _ = try? WebClient.send("DELETE", to: resource, headers: authorization, timeout: .seconds(2))
            self.resource = nil
        }
        pipeline.stop()
    }

    // MARK: - Negotiation

    private var authorization: [(String, String)] {
        token.map { [("Authorization", "Bearer \($0)")] } ?? []
    }

    /// The offer, with the first keyframe's caps on the pictures' pad, POSTed; the answer taken.
    private func negotiate() throws(WHIPError) {
        let offer: String
        do { offer = try peer.offer(timeout: Self.requestTimeout) } catch { throw WHIPError("\(error)") }
        let answer: WebAnswer
        do {
            answer = try WebClient.send(
                "POST", to: endpoint, headers: authorization + [("Accept", "application/sdp")],
                body: Data(offer.utf8), contentType: "application/sdp", timeout: Self.requestTimeout)
        } catch {
            throw WHIPError("the endpoint cannot be reached: \(error)")
        }
        guard answer.status == 201 else {
            let reason = answer.reason.isEmpty ? "" : " \(answer.reason)"
            throw WHIPError("the endpoint refused the offer: HTTP \(answer.status)\(reason)")
        }
        guard let location = answer.headers["location"], let resource = URL(string: location, relativeTo: endpoint)
        else {
            throw WHIPError("the endpoint's answer has no Location (the session's URL)")
        }
        self.resource = resource.absoluteURL
        guard let sdp = String(data: answer.body, encoding: .utf8), sdp.hasPrefix("v=0") else {
            throw WHIPError("the endpoint's answer is not SDP")
        }
        do { try peer.accept(answer: sdp) } catch { throw WHIPError("\(error)") }
    }

}

/// Why a WHIP session could not be made, worded for the user.
struct WHIPError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
