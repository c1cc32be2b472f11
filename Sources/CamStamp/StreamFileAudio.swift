// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

extension StreamJob {
    /// `--source file:CLIP` recorded to a file keeps the clip's audio: launch text that takes it,
    /// parsed and untouched, into the output's muxer (the element named `mux`). Empty for other
    /// sources and targets, with `--audio none`, for a clip without audio, and (with a warning on
    /// `report`, so -q silences it) for audio the container cannot hold without re-encoding.
    func fileAudio(report: JobOutput) throws(MediaError) -> String {
        guard case .file(let clip) = options.source, case .file(_, let container) = options.target,
            options.audio != AudioChoice.none
        else { return "" }
        let streams = try ClipStreams.probe(clip)
        guard streams.audio != nil else { return "" }
        let target: ClipContainer = container == .mp4 ? .mp4 : .mkv
        guard streams.audioFits(target) else {
            report.warning(
                "--source: the audio of \(clip.path) (\(streams.audioType ?? "?")) cannot go into \(container.rawValue.uppercased()) without re-encoding; the recording has no sound"
            )
            return ""
        }
        return try streams.audioBranch(from: clip).map { " " + $0 } ?? ""
    }
}

extension StreamJob {
    /// `fileAudio`, said as the job says it: what is wrong with the clip's streams is the
    /// source's business, and names --source.
    func copiedAudio(report: JobOutput) throws(CamStampError) -> String {
        do { return try fileAudio(report: report) } catch {
            if case .file(let clip) = options.source { throw Capture.captureError(error, source: .file(clip)) }
            throw .failure("\(options.targetDescription): \(error)")
        }
    }

    /// The clip's sound, copied by `fileAudio` into one MP4 recording, read whole (its priming and
    /// last packet, which GStreamer alone loses) to have its edit list put back once the recording
    /// is finished (`keepSoundEdit`); nil for anything else, and for a clip without such an edit.
    func soundEdit(on pipeline: Pipeline) -> RecordedSoundEdit? {
        guard !options.isComposed, case .file(let clip) = options.source, case .file(_, .mp4) = options.target,
            options.audio != AudioChoice.none
        else { return nil }
        return RecordedSoundEdit.install(on: pipeline, clip: clip)
    }

    /// Writes the finished recording again with its sound's edit list (see `RecordedSoundEdit`),
    /// and renames it into its place: a failure leaves the recording as mp4mux wrote it.
    func keepSoundEdit(_ soundEdit: RecordedSoundEdit?) throws(CamStampError) {
        guard let soundEdit, soundEdit.isNeeded, case .file(let url, _) = options.target else { return }
        var info = stat()
        guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        let temporary = TemporaryFiles.temporaryURL(in: url.deletingLastPathComponent(), for: url.lastPathComponent)
        TemporaryFiles.shared.add(temporary)
        defer { TemporaryFiles.shared.remove(temporary) }
        do { try soundEdit.write(url, to: temporary) } catch {
            throw .failure("\(url.path): \(error)")
        }
        try TemporaryFiles.moveIntoPlace(temporary, at: url, replacing: true, exists: StillDestination.exists(url))
    }
}
