// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// The sound of a stream, as a GStreamer source.
enum AudioInput {
    /// The source element's launch text for `choice` with `source`, or nil for a silent stream.
    static func launch(
        _ choice: AudioChoice, source: SourceSpec, note: (String) -> Void
    ) throws(CamStampError) -> String? {
        switch choice {
        case .none:
            return nil
        case .device(let device):
            // ALSA names look like hw:1,0, plughw:…, default; anything else is a PulseAudio source.
            let alsa = device == "default" || device.hasPrefix("hw:") || device.hasPrefix("plughw:")
            let element = alsa ? "alsasrc" : "pulsesrc"
            guard GStreamer.hasElement(element) else {
                throw .failure(
                    "--audio \(device): GStreamer's \(element) is not installed (Debian: \(alsa ? "gstreamer1.0-alsa" : "gstreamer1.0-plugins-good"))"
                )
            }
            return "\(element) device=\(PipelineTemplate.quote(device))"
        case .auto:
            switch source {
            case .test:
                // The test camera's sound: a quiet 440 Hz tone, live like the pictures.
                return "audiotestsrc is-live=true wave=sine freq=440 volume=0.2"
            case .file(let clip):
                // The clip's own sound, decoded to be encoded as each target needs it.
                do { return try ClipStreams.probe(clip).decodedAudio(from: clip) } catch {
                    throw Capture.captureError(error, source: .file(clip))
                }
            case .auto, .v4l2, .named:
                let microphones: Int
                do { microphones = try Devices.microphones() } catch { microphones = 0 }
                for element in ["pulsesrc", "alsasrc"] where microphones > 0 && GStreamer.hasElement(element) {
                    return element
                }
                note("no microphone found: the stream has no sound (--audio none says so quietly)")
                return nil
            }
        }
    }

    /// Whether `choice` with `source` records a microphone (a live sound device that starts in
    /// its own time), not a tone or a clip's own sound.
    static func isDevice(_ choice: AudioChoice, source: SourceSpec) -> Bool {
        switch (choice, source) {
        case (.device, _): true
        case (.auto, .auto), (.auto, .v4l2), (.auto, .named): true
        default: false
        }
    }
}
