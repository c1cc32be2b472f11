// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// What `--json` prints for shoot and stream: one object a line, keys sorted, for scripts.
func jsonLine(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
}

extension ShootJob {
    /// `{"format":"jpg","height":720,"number":1,"output":"/…/photo.jpg","width":1280}`: a photo
    /// written, as soon as it is whole on disk; with `--invisible`, its mark as batch says it.
    func jsonLine(_ file: URL, number: Int, width: Int, height: Int, invisible: String?) -> String {
        struct Photo: Encodable {
            var output: String
            var number, width, height: Int
            var format: String
            var invisible: PhotoWorker.InvisibleMarkInfo?
        }
        return CamStamp.jsonLine(
            Photo(
                output: file.path, number: number, width: width, height: height,
                format: options.format.rawValue, invisible: invisible.map { .init(instanceID: $0) }))
    }

    /// `{"summary":{"interrupted":false,"requested":10,"written":10}}`: the last line.
    func jsonSummary(written: Int, interrupted: Bool) -> String {
        struct Counts: Encodable {
            var written, requested: Int
            var interrupted: Bool
        }
        struct Summary: Encodable { var summary: Counts }
        let counts = Counts(written: written, requested: options.count, interrupted: interrupted)
        return CamStamp.jsonLine(Summary(summary: counts))
    }
}

extension StreamJob {
    /// The summary as one object: what each target got, the frames, the drops, the outages and
    /// the snapshots; printed however the stream ends (Ctrl-C too), before the error if any.
    func jsonSummary(_ summary: Summary, interrupted: Bool) -> String {
        struct Outage: Encodable {
            var target: String
            var seconds: Double
            var reconnections: Int
            var everConnected: Bool
            enum CodingKeys: String, CodingKey { case target, seconds, reconnections, everConnected = "ever_connected" }
        }
        struct Counts: Encodable {
            var targets: [String]
            var frames, dropped: Int
            var seconds: Double
            var snapshots: [String]
            var outages: [Outage]
            var interrupted: Bool
        }
        struct Document: Encodable { var summary: Counts }
        let outages = summary.outages.map {
            Outage(
                target: $0.target, seconds: ProgressRecord.rounded($0.seconds), reconnections: $0.reconnections,
                everConnected: $0.everConnected)
        }
        return CamStamp.jsonLine(
            Document(
                summary: Counts(
                    targets: options.targets.map(\.description), frames: summary.framesWritten,
                    dropped: summary.framesDropped,
                    seconds: ProgressRecord.rounded(summary.duration), snapshots: summary.snapshots.map(\.path),
                    outages: outages, interrupted: interrupted)))
    }
}
