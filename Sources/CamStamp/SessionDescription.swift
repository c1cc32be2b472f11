import Foundation

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
