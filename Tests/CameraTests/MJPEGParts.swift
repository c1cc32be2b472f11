// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Media
import Testing
import TestSupport

/// A viewer of `/stream.mjpg` that keeps the last parts it received, each with its headers
/// (`X-Frame`, `X-Timestamp`) and when its last byte arrived: what a page shows, and when.
final class MJPEGParts: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Part {
        var frame: Int?
        /// The capture time the server put in `X-Timestamp` (seconds since 1970).
        var timestamp: Double?
        var jpeg: Data
        /// When the whole part was in (seconds since 1970).
        var arrived: Double
    }

    private let state = Locked((buffer: Data(), parts: [Part](), total: 0))
    private var session: URLSession!
    private let keep: Int

    /// Starts reading `url`; keeps the last `keep` parts.
    init(_ url: String, keep: Int = 90) {
        self.keep = keep
        super.init()
        session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
        session.dataTask(with: URL(string: url)!).resume()
    }

    func stop() { session.invalidateAndCancel() }

    /// How many parts have come in so far.
    var total: Int { state.get().total }
    var latest: Part? { state.get().parts.last }
    var parts: [Part] { state.get().parts }

    /// Waits (bounded) until `count` more parts than now have come in.
    func waitFor(_ count: Int, timeout: TimeInterval = 30) throws {
        let target = total + count
        let deadline = Date().addingTimeInterval(timeout)
        while total < target {
            guard Date() < deadline else { throw CameraTestError("only \(total) MJPEG parts in \(timeout) s") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let now = Date().timeIntervalSince1970
        state.update { state in
            state.buffer.append(data)
            while let part = Self.takePart(from: &state.buffer, arrived: now) {
                state.parts.append(part)
                state.total += 1
                if state.parts.count > keep { state.parts.removeFirst(state.parts.count - keep) }
            }
        }
    }

    /// The first whole part at the start of `buffer`, removed from it.
    private static func takePart(from buffer: inout Data, arrived: Double) -> Part? {
        let separator = Data("\r\n\r\n".utf8)
        guard let start = buffer.range(of: Data("--camstampframe".utf8)),
            let headEnd = buffer.range(of: separator, in: start.upperBound..<buffer.endIndex)
        else { return nil }
        let head = String(decoding: buffer[start.upperBound..<headEnd.lowerBound], as: UTF8.self)
        var headers: [String: String] = [:]
        for line in head.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            if pair.count == 2 { headers[pair[0].lowercased()] = pair[1].trimmingCharacters(in: .whitespaces) }
        }
        guard let length = headers["content-length"].flatMap({ Int($0) }),
            buffer.endIndex - headEnd.upperBound >= length
        else { return nil }
        let jpeg = Data(buffer[headEnd.upperBound..<headEnd.upperBound + length])
        buffer = Data(buffer[(headEnd.upperBound + length)...])
        return Part(
            frame: headers["x-frame"].flatMap { Int($0) }, timestamp: headers["x-timestamp"].flatMap { Double($0) },
            jpeg: jpeg, arrived: arrived)
    }
}

/// A JPEG's luma rows, decoded through a file in `folder`.
func lumaOfJPEG(_ jpeg: Data, in folder: URL) throws -> [[UInt8]] {
    let file = folder.appendingPathComponent("part-\(UUID().uuidString.prefix(8)).jpg")
    try jpeg.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try lumaPlane(decodeImage(file))
}

/// A way to turn a picture over: to show that a comparison tells a picture from its mirror image.
enum Flip { case none, leftRight, upsideDown }

/// The mean absolute difference of two luma planes of one size (nil when the sizes differ), `b`
/// turned over by `flip` first.
func meanDifference(_ a: [[UInt8]], _ b: [[UInt8]], flip: Flip = .none) -> Double? {
    guard a.count == b.count, a.first?.count == b.first?.count, let width = a.first?.count, width > 0 else {
        return nil
    }
    var total = 0
    for (y, rowA) in a.enumerated() {
        let rowB = b[flip == .upsideDown ? b.count - 1 - y : y]
        for x in 0..<width { total += abs(Int(rowA[x]) - Int(rowB[flip == .leftRight ? width - 1 - x : x])) }
    }
    return Double(total) / Double(a.count * width)
}
