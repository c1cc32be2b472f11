// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

extension InspectJob {
    /// A clip, parsed (not decoded) as batch's ClipWorker probes it. A clip has one path: its video
    /// is decoded, marked frame by frame and encoded again.
    func inspectClip(_ url: URL, format: ClipItem.Format, marker: FrameMarker) throws(CamStampError) -> Inspection {
        let streams: ClipStreams
        do { streams = try ClipStreams.probe(url) } catch {
            throw .failure("cannot read the clip (\(error.description))")
        }
        guard let size = streams.videoSize else { throw .failure("the clip has no video to mark") }
        let turns = ["rotate-90": 6, "rotate-180": 3, "rotate-270": 8, "flip-rotate-0": 2, "flip-rotate-180": 4]
        let orientation = streams.orientation.flatMap { turns[$0] } ?? 1
        let swapped = orientation >= 5
        let upright = swapped ? (size.height, size.width) : (size.width, size.height)
        var context = marker.context(
            width: upright.0, height: upright.1, captureDate: streams.created ?? Date(), frame: 0)
        context.filename = url.lastPathComponent
        context.stem = url.deletingPathExtension().lastPathComponent
        context.counter = 1
        let codec = format.codec(sourceVideo: streams.video)
        var reason = "a clip: its video is decoded, marked frame by frame and encoded again as \(codec.rawValue)"
        reason += streams.audio == nil ? "" : "; the sound is copied as it is"
        return Inspection(
            file: url.relativePath, kind: "clip", format: format.source.rawValue.uppercased(), width: size.width,
            height: size.height, orientation: orientation, orientationMeaning: Inspection.meaning(orientation),
            uprightWidth: upright.0, uprightHeight: upright.1, variables: Self.variables(context, video: true),
            metadata: [], path: PhotoWorker.WritePath.reencoded.rawValue, reason: reason, notes: [])
    }
}
