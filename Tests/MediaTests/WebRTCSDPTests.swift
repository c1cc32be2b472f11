// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Media

/// The SDP texts camstamp reads before webrtcbin sees them (issue 34).
@Suite struct WebRTCSDPTests {
    static let offer = [
        "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "m=video 9 UDP/TLS/RTP/SAVPF 96 102",
        "a=rtpmap:96 VP8/90000",
        "a=rtpmap:102 H264/90000", "a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f",
        "a=candidate:1 1 udp 2122260223 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0.local 54321 typ host",
        "a=candidate:2 1 udp 2122260223 192.168.1.20 54322 typ host",
        "a=candidate:3 1 udp 2122260223 fe80::1:abcd 54323 typ host",
        "a=candidate:4 1 tcp 1518280447 dead.beef.local 9 typ host tcptype active",
        "a=end-of-candidates", "",
    ].joined(separator: "\r\n")

    @Test func candidatesNamedByMDNSAreDroppedAndAddressesKept() {
        let kept = WebRTCPeer.withoutHostnameCandidates(Self.offer)
        let candidates = kept.split(separator: "\r\n").filter { $0.hasPrefix("a=candidate:") }
        #expect(candidates.map { $0.split(separator: " ")[4] } == ["192.168.1.20", "fe80::1:abcd"])
        // Everything else as it was, line for line, CRLF kept.
        #expect(kept.split(separator: "\r\n").count == Self.offer.split(separator: "\r\n").count - 2)
        #expect(kept.hasSuffix("a=end-of-candidates\r\n"))
    }

    @Test func theOffersH264FormatIsFound() throws {
        let format = try #require(WebRTCViewers.h264Format(in: Self.offer))
        #expect(format.payload == 102 && format.profileLevel == "42e01f")
        #expect(
            WebRTCViewers.h264Format(in: Self.offer.replacingOccurrences(of: "packetization-mode=1", with: "")) == nil)
    }
}
