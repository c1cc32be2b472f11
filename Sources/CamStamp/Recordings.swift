// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// The stream's files, written under a temporary name in their folder until a frame of theirs is
/// on disk, then moved to their name (link(2), or rename(2) with --overwrite, as shoot and batch
/// place theirs). A recording that never got a frame is no recording: nothing is left in its place,
/// whether the stream could not start, failed or was stopped (Ctrl-C, twice, SIGTERM) before its
/// first frame; a hard kill then leaves only a hidden temporary that the next run into that
/// folder removes. A file replaced with --overwrite stays as it was until then.
final class Recordings: @unchecked Sendable {
    private struct Entry {
        let target: URL
        let temporary: URL
        var settled = false
    }
    private let overwrite: Bool
    private let targets: [URL]
    private var entries: [Entry] = []

    init(options: StreamOptions) {
        overwrite = options.overwrite
        targets = options.targets.compactMap { if case .file(let url, _) = $0 { url } else { nil } }
    }

    /// The recordings of the camera's page (`POST /api/record`): one file, never replacing.
    init(targets: [URL], overwrite: Bool = false) {
        self.targets = targets
        self.overwrite = overwrite
    }

    /// Where each recording is written until it is placed, by its target.
    var locations: [URL: URL] {
        Dictionary(entries.map { ($0.target, $0.temporary) }, uniquingKeysWith: { first, _ in first })
    }

    /// Picks the temporaries (registered, so a second Ctrl-C removes them) and removes the stale
    /// ones that killed runs left in their folders. A target that is there and no regular file
    /// (a named pipe another program reads, a device) is written straight to, as it always was.
    func begin() {
        for target in targets {
            var info = stat()
            if stat(target.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG { continue }
            let folder = target.deletingLastPathComponent()
            TemporaryFiles.removeStale(in: folder)
            let temporary = TemporaryFiles.temporaryURL(in: folder, for: target.lastPathComponent)
            TemporaryFiles.shared.add(temporary)
            entries.append(Entry(target: target, temporary: temporary))
        }
    }

    /// Moves each recording with a frame on disk to its name (a target that appeared meanwhile,
    /// without --overwrite, is thrown).
    func placeThoseWithAFrame(stream: LiveStream) throws(CamStampError) {
        try placeThoseWithAFrame(onDisk: stream.hasFrameOnDisk(location:))
    }

    /// The same, for any pipeline: `onDisk` says whether the file at a location has a frame.
    func placeThoseWithAFrame(onDisk: (String) -> Bool) throws(CamStampError) {
        for index in entries.indices where !entries[index].settled && onDisk(entries[index].temporary.path) {
            try place(index)
        }
    }

    /// Whether every recording is placed (or given up).
    var allSettled: Bool { entries.allSatisfy(\.settled) }

    /// Places each recording with a frame on disk, removes the others: every way a stream ends
    /// goes through here. `stream` nil: it never started. `finishedWithFrames`: the stream
    /// ended at every sink after frames were written, so every file holds them, whatever its
    /// muxer's buffers said. A target that appeared meanwhile (without --overwrite) is thrown,
    /// once every recording is settled.
    func settle(stream: LiveStream?, finishedWithFrames: Bool = false) throws(CamStampError) {
        try settle(onDisk: stream.map { $0.hasFrameOnDisk(location:) }, finishedWithFrames: finishedWithFrames)
    }

    /// The same, for any pipeline (`onDisk` nil: it never started).
    func settle(onDisk: ((String) -> Bool)?, finishedWithFrames: Bool = false) throws(CamStampError) {
        var failure: CamStampError?
        for index in entries.indices where !entries[index].settled {
            if let onDisk, finishedWithFrames || onDisk(entries[index].temporary.path) {
                do { try place(index) } catch { failure = failure ?? error }
            } else {
                entries[index].settled = true
                TemporaryFiles.shared.remove(entries[index].temporary)
            }
        }
        if let failure { throw failure }
    }

    private func place(_ index: Int) throws(CamStampError) {
        let entry = entries[index]
        entries[index].settled = true
        defer { TemporaryFiles.shared.remove(entry.temporary) }
        try TemporaryFiles.moveIntoPlace(
            entry.temporary, at: entry.target, replacing: overwrite, exists: StillDestination.exists(entry.target))
    }
}
