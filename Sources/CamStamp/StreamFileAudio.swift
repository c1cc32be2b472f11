import Foundation
internal import Media

extension StreamJob {
    /// `--source file:CLIP` recorded to a file keeps the clip's audio: launch text that takes it,
    /// parsed and untouched, into the output's muxer (the element named `mux`). Empty for other
    /// sources and targets, for a clip without audio, and (with a note on stderr) for audio the
    /// container cannot hold without re-encoding.
    func fileAudio() throws(MediaError) -> String {
        guard case .file(let clip) = options.source, case .file(_, let container) = options.target else { return "" }
        let streams = try ClipStreams.probe(clip)
        guard streams.audio != nil else { return "" }
        let target: ClipContainer = container == .mp4 ? .mp4 : .mkv
        guard streams.audioFits(target) else {
            FileHandle.standardError.write(Data("camstamp: --source: the audio of \(clip.path) (\(streams.audioType ?? "?")) cannot go into \(container.rawValue.uppercased()) without re-encoding; the recording has no sound\n".utf8))
            return ""
        }
        return try streams.audioBranch(from: clip).map { " " + $0 } ?? ""
    }
}
