// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Dispatch
import Foundation
internal import Media

/// Encodes snapshot frames to JPEG off the streaming thread, each written atomically.
final class SnapshotWriter: @unchecked Sendable {
    private let folder: URL
    private let template: PipelineTemplate
    private let queue = DispatchQueue(label: "camstamp.snapshots")
    private let report: JobOutput
    private let lock = NSLock()
    private var files: [URL] = []

    init(folder: URL, template: PipelineTemplate, report: JobOutput) {
        self.folder = folder
        self.template = template
        self.report = report
    }

    var written: [URL] { lock.withLock { files } }

    func write(_ frame: VideoFrame) {
        queue.async { [self] in
            do {
                let destination = try StillDestination(output: folder, format: .jpg, prefix: "snapshot")
                let file = try destination.write { (temporary: URL) throws(CamStampError) in
                    do {
                        try StillDestination.encode(frame, template: template, quality: 92, to: temporary)
                    } catch {
                        throw CamStampError.unwritable(
                            error, path: folder.path, what: "the snapshot", option: "--snapshot-dir")
                            ?? .failure("snapshot: \(error)")
                    }
                }
                lock.withLock { files.append(file) }
                report.result(file.path)
            } catch {
                report.error("\(error)")
            }
        }
    }

    func waitUntilDone() { queue.sync {} }
}
