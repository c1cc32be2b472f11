// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// An SDP for H.264 over RTP (RFC 6184), built from the payloader's caps.
struct SessionDescription {
    let host: String
    let port: UInt16
    let capsFields: [String: String]

    var text: String {
        let family = host.contains(":") ? "IP6" : "IP4"
        let payload = capsFields["payload"].flatMap { Int($0) } ?? 96
        var fmtp = ["packetization-mode=\(capsFields["packetization-mode"] ?? "1")"]
        if let profile = capsFields["profile-level-id"] { fmtp.append("profile-level-id=\(profile)") }
        if let sets = capsFields["sprop-parameter-sets"] { fmtp.append("sprop-parameter-sets=\(sets)") }
        return """
            v=0
            o=- 0 0 IN \(family) \(host)
            s=camstamp
            c=IN \(family) \(host)
            t=0 0
            m=video \(port) RTP/AVP \(payload)
            a=rtpmap:\(payload) H264/90000
            a=fmtp:\(payload) \(fmtp.joined(separator: ";"))

            """
    }
}

extension StreamJob {
    /// The first RTP target, whose SDP is printed.
    var rtpTarget: StreamTarget? {
        options.targets.first { if case .rtp = $0 { true } else { false } }
    }

    /// The SDP a receiver needs, once the first RTP target's payloader has settled its caps.
    func sessionDescription(_ session: Session) -> String? {
        guard let branch = session.output.branches.first(where: { if case .rtp = $0.target { true } else { false } }),
            case .rtp(let host, let port) = branch.target, let name = branch.payloader,
            let payloader = try? session.stream.pipeline.element(named: name),
            let caps = payloader.currentCaps(pad: "src")
        else { return nil }
        return SessionDescription(host: session.address ?? host, port: port, capsFields: caps.fields).text
    }

    func publish(sdp: String, report: JobOutput) throws(CamStampError) {
        report.result(sdp)
        guard let file = options.sdp else { return }
        do { try sdp.write(to: file, atomically: true, encoding: .utf8) } catch {
            throw .failure("--sdp \(file.path): \(error.localizedDescription)")
        }
    }
}
