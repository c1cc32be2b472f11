// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// Collects outcomes from the workers: the progress line, per-failure lines, JSON lines, totals.
final class BatchReporter: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let json: Bool
    private let report: JobOutput
    private var progress: ProgressLine { report.progress }
    private let started = ContinuousClock.now
    private var summary = BatchJob.Summary()
    private var done = 0
    /// What the progress line counts: "photos", "clips", or "files" for both.
    private let noun: String

    init(total: Int, clips: Int = 0, json: Bool, report: JobOutput) {
        self.total = total
        self.json = json
        self.report = report
        noun = clips == 0 ? "photos" : clips == total ? "clips" : "files"
    }

    private struct Line: Encodable {
        var input: String
        var output: String?
        var status: String
        var reason: String?
        var milliseconds: Int
        /// How a marked photo was written: "spliced" (its entropy-coded data spliced), "coefficients"
        /// (stamped in its DCT blocks) or "reencoded".
        var path: String?
        /// Clips only: the frames written.
        var frames: Int?
        /// `--invisible`: the mark's algorithm, instance id and payload.
        var invisible: PhotoWorker.InvisibleMarkInfo?
    }

    /// The `--shard` this batch is, named in the JSON summary.
    var shard: Shard?

    /// The `--json` summary: what this process (or shard) did, the counts of the last stderr line.
    private struct SummaryLine: Encodable {
        struct Counts: Encodable {
            var marked, failed, skipped, notStarted, existing: Int
            var interrupted: Bool
            var shard: String?
            var milliseconds: Int
            enum CodingKeys: String, CodingKey {
                case marked, failed, skipped, existing, interrupted, shard, milliseconds
                case notStarted = "not_started"
            }
        }
        var summary: Counts
    }

    static let notAPhoto = "not a photo by its content (JPEG, PNG, WebP, HEIC/HEIF, AVIF or TIFF)"

    /// A file found in a folder that is not a photo: counted and named on stderr.
    func skippedFile(_ url: URL) {
        lock.withLock {
            summary.skipped += 1
            report.warning("\(url.path): skipped: \(Self.notAPhoto)")
            if json {
                emit(Line(input: url.path, output: nil, status: "skipped", reason: Self.notAPhoto, milliseconds: 0))
            }
        }
    }

    /// A file refused before any work (not a regular file), reported like a failed photo.
    func failedFile(_ url: URL, reason: String) {
        lock.withLock {
            summary.failed += 1
            report.error("\(url.path): \(reason)")
            if json { emit(Line(input: url.path, output: nil, status: "failed", reason: reason, milliseconds: 0)) }
        }
    }

    func record(_ outcome: PhotoWorker.Outcome) {
        record(
            input: outcome.item.input, output: outcome.item.output, status: outcome.status, reason: outcome.reason,
            milliseconds: outcome.milliseconds, path: outcome.path, invisible: outcome.invisible)
    }

    func record(_ outcome: ClipWorker.Outcome) {
        // Named on stderr as a file skipped in a folder is (one skipped under --skip-existing is not).
        if outcome.status == .skipped, let reason = outcome.reason, reason == ClipWorker.soundOnly {
            report.warning("\(outcome.item.input.path): skipped: \(reason)")
        }
        record(
            input: outcome.item.input, output: outcome.item.output, status: outcome.status, reason: outcome.reason,
            milliseconds: outcome.milliseconds, frames: outcome.frames)
    }

    /// A clip under way: `clip.mp4 42% · 3.1× · 2/10 files` (speed in clip seconds per second).
    func clipProgress(_ clip: ClipItem, fraction: Double?, speed: Double) {
        lock.withLock {
            let percent = fraction.map { "\(Int($0 * 100))%" } ?? "…"
            let speedText = String(format: "%.1f", speed)
            progress.update(
                "\(clip.input.lastPathComponent) \(percent) · \(speedText)× · \(done)/\(total) files",
                record: record())
        }
    }

    private func record(
        input: URL, output: URL, status: PhotoWorker.Status, reason: String?, milliseconds: Int,
        path: PhotoWorker.WritePath? = nil, frames: Int? = nil, invisible: PhotoWorker.InvisibleMarkInfo? = nil
    ) {
        lock.withLock {
            done += 1
            switch status {
            case .marked:
                summary.marked += 1
                if let warning = reason { report.warning("\(input.path): warning: \(warning)") }
            case .skipped: summary.skipped += 1
            case .exists: summary.existing += 1
            case .failed:
                summary.failed += 1
                report.error("\(input.path): \(reason ?? "failed")")
            }
            if json {
                emit(
                    Line(
                        input: input.path, output: status == .marked ? output.path : nil,
                        status: status.rawValue, reason: reason, milliseconds: milliseconds,
                        path: status == .marked ? path?.rawValue : nil, frames: frames,
                        invisible: status == .marked ? invisible : nil))
            }
            let (rate, eta) = pace()
            progress.update(
                "\(done)/\(total) \(noun) · \(String(format: "%.1f", rate))/s · ETA \(clockText(seconds: eta).dropFirst(3))",
                record: record(), force: done == total)
        }
    }

    /// Files a second since the start, and the seconds left at that rate.
    private func pace() -> (rate: Double, eta: Double) {
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let rate = seconds > 0 ? Double(done) / seconds : 0
        return (rate, rate > 0 ? Double(total - done) / rate : 0)
    }

    /// The `--progress json` line of now (called with the lock held).
    private func record() -> ProgressRecord {
        let (rate, eta) = pace()
        return ProgressRecord(
            elapsed: ProgressRecord.rounded((ContinuousClock.now - started) / .seconds(1)),
            done: done, total: total, rate: ProgressRecord.rounded(rate),
            eta: ProgressRecord.rounded(eta))
    }

    func finish(interrupted: Bool) -> BatchJob.Summary {
        lock.withLock {
            progress.end(record())
            progress.finish()
            summary.notStarted = total - done
            if let existing = summary.existingLine { report.error(existing) }
            if !interrupted { report.note(summary.line) }
            Verbosity.log(
                "stamping: \(Verbosity.milliseconds(since: started)) ms for \(done) photo\(done == 1 ? "" : "s")")
            if json {
                // The last line: one object per shard, which docs/scale.md sums into one report.
                emit(
                    SummaryLine(
                        summary: .init(
                            marked: summary.marked,
                            failed: summary.failed, skipped: summary.skipped,
                            notStarted: summary.notStarted, existing: summary.existing,
                            interrupted: interrupted,
                            shard: shard?.description,
                            milliseconds: Verbosity.milliseconds(since: started))))
            }
            return summary
        }
    }

    private func emit(_ line: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(line) { report.result(String(decoding: data, as: UTF8.self)) }
    }
}
