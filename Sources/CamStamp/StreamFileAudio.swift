import Foundation
internal import Media

extension StreamJob {
    /// `--source file:CLIP` recorded to a file keeps the clip's audio: launch text that takes it,
    /// parsed and untouched, into the output's muxer (the element named `mux`). Empty for other
    /// sources and targets, with `--audio none`, for a clip without audio, and (with a warning on
    /// `report`, so -q silences it) for audio the container cannot hold without re-encoding.
    func fileAudio(report: JobOutput) throws(MediaError) -> String {
        guard case .file(let clip) = options.source, case .file(_, let container) = options.target,
              options.audio != AudioChoice.none else { return "" }
        let streams = try ClipStreams.probe(clip)
        guard streams.audio != nil else { return "" }
        let target: ClipContainer = container == .mp4 ? .mp4 : .mkv
        guard streams.audioFits(target) else {
            report.warning("--source: the audio of \(clip.path) (\(streams.audioType ?? "?")) cannot go into \(container.rawValue.uppercased()) without re-encoding; the recording has no sound")
            return ""
        }
        return try streams.audioBranch(from: clip).map { " " + $0 } ?? ""
    }
}
