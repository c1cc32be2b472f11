// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// Marks one clip at a time for a batch worker: probes it, builds its pipeline and runs it into a
/// temporary file that becomes the output only when the clip is complete.
final class ClipWorker {
    /// What GStreamer said of a clip, in its words without the element's path (and its debug
    /// dump: a muxer refusing new caps printed both caps whole, about 1 KB).
    static func said(_ error: Error) -> String {
        guard let media = error as? MediaError, let message = media.elementMessage else { return "\(error)" }
        if media.description.contains("Caps changes are not supported") {
            return message
                + " The video changes size or format mid-clip, which Matroska cannot hold; remux the clip to MP4 first "
                + "(ffmpeg -i IN -c copy OUT.mp4), whose marked copy can"
        }
        return message
    }

    struct Settings {
        var existing: ExistingFilePolicy
        var template: PipelineTemplate
        /// Encoder threads per clip: the cores shared out among the batch's workers, so that
        /// `--jobs N` clips at once keep to the machine (x264 would otherwise take every core each).
        /// 0 for a worker alone: the encoder's own count (x264 runs 1.5 threads a core, as in ffmpeg).
        var threads: Int
        /// What the clip keeps of its source's metadata (`--strip-gps` leaves its location out,
        /// `--strip-metadata` adds nothing to what the muxer writes).
        var metadata: MetadataPolicy = .keep
        /// `--sign`: each MP4 or MOV output signed once it is finished.
        var credentials: ContentCredentials?
        var metadataEdit: String?
    }

    struct Outcome: Sendable {
        var item: ClipItem
        var status: PhotoWorker.Status
        var reason: String?
        var milliseconds: Int
        var frames = 0
    }

    private let settings: Settings
    private let marker: FrameMarker

    init(settings: Settings, marker: FrameMarker) {
        self.settings = settings
        self.marker = marker
    }

    /// Why a file found in a folder with sound and no picture is skipped.
    static let soundOnly = "sound only, no picture to mark"

    /// What of a clip a marked copy leaves out beyond its extra sound tracks, one note each:
    /// subtitles and data tracks, attached files, a transparency channel, a tilt its player shows.
    static func leftOut(_ streams: ClipStreams) -> [String] {
        var notes: [String] = []
        /// "its 1 subtitle track is" / "its 2 subtitle tracks are".
        func its(_ number: Int, _ noun: String) -> String {
            number == 1 ? "its 1 \(noun) is" : "its \(number) \(noun)s are"
        }
        let subtitlePrefixes = [
            "text/", "subpicture/", "subtitle/", "closedcaption/", "application/x-ssa", "application/x-ass",
            "application/x-subtitle",
        ]
        let subtitles = streams.otherStreams.filter { type in subtitlePrefixes.contains(where: type.hasPrefix) }
        let data = streams.otherStreams.filter { type in !subtitlePrefixes.contains(where: type.hasPrefix) }
        if !subtitles.isEmpty { notes.append("\(its(subtitles.count, "subtitle track")) left out") }
        if !data.isEmpty { notes.append("\(its(data.count, "data track")) left out (\(data.joined(separator: ", ")))") }
        if streams.attachments > 0 {
            notes.append("\(its(streams.attachments, "attached file")) left out (fonts and such)")
        }
        if streams.videoHasAlpha {
            notes.append("its transparency (alpha channel) is left out: the marked video is opaque")
        }
        if let turn = streams.unappliedTurn {
            notes.append(
                "its \(String(format: "%g", turn))° turn (clockwise, from its track's matrix) is not applied: only quarter turns are"
            )
        }
        return notes
    }

    /// Marks `item`; `progress` gets the fraction done (0…1, nil when the length is unknown) and
    /// the speed (seconds of clip per second of work); `cancelled` stops the clip and removes its
    /// temporary file, and the clip is then not done at all (nil: counted as not started).
    func process(_ item: ClipItem, progress: (Double?, Double) -> Void, cancelled: @escaping () -> Bool) -> Outcome? {
        let start = ContinuousClock.now
        func outcome(_ status: PhotoWorker.Status, _ reason: String? = nil, frames: Int = 0) -> Outcome {
            let elapsed = ContinuousClock.now - start
            return Outcome(
                item: item, status: status, reason: reason,
                milliseconds: PhotoWorker.milliseconds(elapsed),
                frames: frames)
        }
        if let (status, reason) = PhotoWorker.existingOutput(item.output, settings.existing) {
            return outcome(status, reason)
        }
        if marker.preset.marks.contains(where: { $0.template?.showsProof == true }) {
            return outcome(.failed, "{proof} and {proof-url} are drawn on photos only, not on clips yet")
        }
        let streams: ClipStreams
        do { streams = try ClipStreams.probe(item.input) } catch {
            return outcome(.failed, "cannot read the video: \(Self.said(error))")
        }
        guard streams.video != nil else {
            return item.explicit ? outcome(.failed, "the file has no video stream") : outcome(.skipped, Self.soundOnly)
        }
        let (audio, notes) = Self.audio(of: streams, into: item.format.output)
        let codec = item.format.codec(sourceVideo: streams.video), container = item.format.output
        // What H.264 and HEVC (4:2:0) cannot take is said before the encoder fails on it with its
        // element path (odd sides; under 16 pixels, which MP4 refuses).
        if codec != .vp9, let (width, height) = streams.videoSize {
            let size = FrameSize(width: width, height: height)
            do { try H264Limits.check(size: size, subject: "its \(size) frames", mp4: container == .mp4) } catch {
                return outcome(.failed, "cannot mark the video: \(error.message)")
            }
        }
        let marking = Marking(notes: notes)
        let folder = item.output.deletingLastPathComponent()
        let temporary = TemporaryFiles.temporaryURL(in: folder, for: item.output.lastPathComponent)
        TemporaryFiles.shared.add(temporary)
        defer { TemporaryFiles.shared.remove(temporary) }
        let frames: Int
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let mark = mark(item, streams: streams, marking: marking)
            frames = try encode(
                item, streams: streams, codec: codec, audio: audio, into: temporary, mark: mark,
                progress: progress, cancelled: cancelled)
        } catch is ClipPipelineCancelled {
            return nil
        } catch let error as CamStampError {
            return outcome(.failed, "cannot mark the video: \(error.message)")
        } catch {
            // The output's disk, not the video, is at fault: said as a photo's is.
            if (error as? MediaError)?.resourceProblem == .noSpaceLeft {
                return outcome(.failed, PhotoWorker.diskFull(item.output))
            }
            return outcome(.failed, "cannot mark the video: \(Self.said(error))")
        }
        if let cutShort = Self.cutShort(streams, lastTime: marking.lastTime) { marking.notes.append(cutShort) }
        if let failure = place(item, from: temporary, created: streams.created, notes: &marking.notes) {
            return outcome(.failed, failure)
        }
        return outcome(.marked, marking.notes.isEmpty ? nil : marking.notes.joined(separator: "; "), frames: frames)
    }

    /// What a clip's marks carry from frame to frame (on the encoder's thread, read once the run is over).
    private final class Marking {
        /// What the clip's outcome says beside its marks.
        var notes: [String]
        /// The last frame's timestamp (ns).
        var lastTime: UInt64?
        var fps: Double?
        /// `{timecode}`, from the clip's own timecode once the first frame gave its rate.
        var timecode: Timecode?
        var timecodeRead = false
        /// Whether the frames are labelled with their timecodes (MOV only: see `label`).
        var carriesTimecode = false

        init(notes: [String]) { self.notes = notes }
    }

    /// What happens to the clip's audio in `container`, and the notes on what of the clip is left out.
    private static func audio(
        of streams: ClipStreams,
        into container: ClipContainer
    ) -> (ClipPipeline.AudioHandling, [String]) {
        var notes: [String] = []
        let audio: ClipPipeline.AudioHandling
        if let caps = streams.audio {
            if streams.audioFits(container) {
                audio = .passThrough(caps)
            } else {
                audio = .drop
                notes.append(
                    "its audio (\(streams.audioType ?? "?")) cannot go into \(container.rawValue.uppercased()) without re-encoding; left out"
                )
            }
        } else {
            audio = .none
        }
        if case .passThrough = audio, streams.audioStreams > 1 {
            notes.append("only its first of \(streams.audioStreams) sound tracks is kept")
        }
        notes += leftOut(streams)
        if streams.isDeeperThan8Bits {
            notes.append(
                "its \(streams.videoProfile ?? "deep") video is written with 8 bits a sample (an HDR picture loses its range)"
            )
        }
        return (audio, notes)
    }

    /// What the marks do with each frame of `item`: the context (time, frame, timecode), the
    /// marks, and the frame's timecode label for a MOV.
    private func mark(_ item: ClipItem, streams: ClipStreams, marking: Marking) -> ClipPipeline.Mark {
        // {time} counts from the clip's creation time, else from the file's modification time.
        let created = streams.created ?? modificationDate(item.input) ?? Date()
        let marker = self.marker
        let input = item.input
        let counter = item.counter
        // {timecode} starts at the clip's own timecode; a tag's rate is the video's, known at its first frame.
        let showsTimecode = marker.preset.showsTimecode
        // The muxer writes the timecode track from the frames' timecodes (MOV only: see `label`).
        marking.carriesTimecode = item.format.output == .mov
        return { frame, index, pts in
            if let pts { marking.lastTime = pts }
            marking.fps = marking.fps ?? frame.framesPerSecond
            let fps = marking.fps
            if !marking.timecodeRead, let recorded = streams.timecode {
                marking.timecode = Timecode(recorded, videoRate: fps)
                if marking.timecode == nil, showsTimecode {
                    marking.notes.append(Self.unusable(recorded, videoRate: fps))
                }
            }
            marking.timecodeRead = true
            let offset = pts.map { Double($0) / 1e9 } ?? Double(index) / (fps ?? 30)
            var context = marker.context(
                width: frame.width, height: frame.height, captureDate: created.addingTimeInterval(offset),
                frame: index, fps: fps)
            context.filename = input.lastPathComponent
            context.stem = input.deletingPathExtension().lastPathComponent
            context.counter = counter
            context.timecode = marking.timecode
            do { try marker.mark(frame, context: context) } catch { return error }
            if let timecode = marking.timecode, marking.carriesTimecode {
                marking.carriesTimecode = Self.label(
                    frame, index: index, fps: fps, with: timecode, notes: &marking.notes)
            }
            return nil
        }
    }

    /// Builds `item`'s pipeline into `temporary` and runs it; the frames written.
    private func encode(
        _ item: ClipItem, streams: ClipStreams, codec: ClipVideoCodec,
        audio: ClipPipeline.AudioHandling, into temporary: URL, mark: @escaping ClipPipeline.Mark,
        progress: (Double?, Double) -> Void, cancelled: @escaping () -> Bool
    ) throws -> Int {
        let pipeline = try ClipPipeline(
            template: settings.template, input: item.input, output: temporary,
            codec: codec, container: item.format.output,
            audio: audio, threads: settings.threads, turned: streams.isTurned,
            matroskaStart: [.mkv, .webm].contains(item.format.source) ? streams.start : nil,
            duration: streams.duration, mark: mark)
        try pipeline.keepTags(location: settings.metadata == .keep, any: settings.metadata != .stripAll)
        if settings.metadata != .stripAll, let created = streams.created { try pipeline.keepCreationTime(created) }
        let began = ContinuousClock.now
        return try pipeline.run(
            progress: { position in
                let elapsed = (ContinuousClock.now - began) / .seconds(1)
                let fraction = streams.duration.flatMap { $0 > 0 ? min(1, Double(position) / Double($0)) : nil }
                progress(fraction, elapsed > 0 ? Double(position) / 1e9 / elapsed : 0)
            }, cancelled: cancelled)
    }

    /// A file cut short in its media data (its index whole, as a faststart MP4 copied halfway)
    /// plays to where the data ends: marked, but said.
    private static func cutShort(_ streams: ClipStreams, lastTime: UInt64?) -> String? {
        guard let videoDuration = streams.videoDuration, let lastTime else { return nil }
        let whole = Double(videoDuration) / 1e9, read = Double(lastTime) / 1e9
        guard whole - read > max(1, whole / 10) else { return nil }
        return String(
            format: "only %.1f s of its %.1f s of video could be read: the file is cut short or damaged", read, whole)
    }

    /// Keeps the source's metadata in the marked `temporary` and moves it to `item`'s output;
    /// the failure's reason, or nil.
    private func place(_ item: ClipItem, from temporary: URL, created: Date?, notes: inout [String]) -> String? {
        do {
            try keepMetadata(of: item, in: temporary, created: created)
        } catch {
            // Its reason alone: the file it names is the temporary output.
            guard case .metadata(_, let reason) = error else { return "cannot keep its metadata: \(error)" }
            return "cannot keep its metadata: \(reason)"
        }
        let finished: URL
        do { finished = try signed(item, temporary, notes: &notes) } catch { return error.message }
        defer { if finished != temporary { TemporaryFiles.shared.remove(finished) } }
        do {
            try TemporaryFiles.moveIntoPlace(
                finished, at: item.output, replacing: settings.existing == .overwrite,
                exists: .failure(PhotoWorker.alreadyExists(item.output)))
        } catch {
            return error.message
        }
        return nil
    }

    /// The finished clip signed (`--sign`) into a second temporary file, the last write; or
    /// `temporary` as it is, with a note when the source's manifest is left out.
    private func signed(_ item: ClipItem, _ temporary: URL, notes: inout [String]) throws(CamStampError) -> URL {
        let mime: [ClipContainer: String] = [.mp4: "video/mp4", .mov: "video/quicktime"]
        guard let credentials = settings.credentials else {
            if ContentCredentials.clipCarriesManifest(item.input) { notes.append(ContentCredentials.manifestDropped) }
            return temporary
        }
        guard let format = mime[item.format.output], let sourceFormat = mime[item.format.source] else {
            notes.append("not signed: Content Credentials go into MP4 and MOV clips, not \(item.format.output)")
            return temporary
        }
        let signed = TemporaryFiles.temporaryURL(
            in: temporary.deletingLastPathComponent(), for: item.output.lastPathComponent)
        TemporaryFiles.shared.add(signed)
        do {
            let warning = try credentials.signClip(
                temporary, into: signed, format: format, source: item.input, sourceFormat: sourceFormat,
                marks: ContentCredentials.marks(marker.drawnContents), metadataEdit: settings.metadataEdit)
            if let warning { notes.append(warning) }
        } catch {
            try? FileManager.default.removeItem(at: signed)
            TemporaryFiles.shared.remove(signed)
            throw error
        }
        try? FileManager.default.removeItem(at: temporary)
        return signed
    }

    /// Carries what the muxer cannot write of an MP4 or MOV source's metadata into the marked
    /// `output` (its creation time, location, camera: `ClipMetadata`), as `settings.metadata` allows.
    private func keepMetadata(of item: ClipItem, in output: URL, created: Date?) throws(MediaError) {
        guard settings.metadata != .stripAll, [.mp4, .mov].contains(item.format.source),
            [.mp4, .mov].contains(item.format.output)
        else { return }
        try ClipMetadata.carry(
            from: item.input, into: output, created: created, keepLocation: settings.metadata == .keep)
    }

    private func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}
