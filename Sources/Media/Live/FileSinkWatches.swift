// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
import Synchronization

/// Whether each `filesink` of a pipeline has a frame on disk yet: the stream's recordings and the
/// camera's are placed under their names only then, so a kill leaves a playable file or none.
public final class FileSinkWatches: Sendable {
    /// The watches, by the location each sink writes.
    private let files: [String: FileSinkWatch]

    /// Watches every `filesink` of `pipeline` (call before it starts).
    public init(pipeline: Pipeline) {
        var files: [String: FileSinkWatch] = [:]
        for element in pipeline.allElements() where Pipeline.factoryName(of: element.pointer) == "filesink" {
            guard let location = element.string("location"),
                let pad = gst_element_get_static_pad(element.pointer, "sink")
            else { continue }
            defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
            let watch = FileSinkWatch()
            files[location] = watch
            let types = GstPadProbeType(
                GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
            gst_pad_add_probe(pad, types, fileSinkProbe, Unmanaged.passRetained(watch).toOpaque()) {
                if let context = $0 { Unmanaged<AnyObject>.fromOpaque(context).release() }
            }
        }
        self.files = files
    }

    /// Whether the file sink writing `location` has a frame on disk: the muxer's output of a
    /// frame went into the file, and something came after it (a filesink writes each buffer
    /// before it takes the next, or the end). Until then the file is no recording (only headers).
    public func hasFrameOnDisk(location: String) -> Bool {
        files[location]?.lock.withLock { $0.frameOnDisk } ?? false
    }
}

/// What a file sink was given so far (written on its streaming thread, read by the job's).
private final class FileSinkWatch: Sendable {
    struct State {
        /// A buffer holding a frame (muxers give a frame's data its duration; headers, cluster
        /// and block headers have none) reached the sink.
        var frameGiven = false
        /// And the sink has taken something after it, so it is written.
        var frameOnDisk = false
    }
    let lock = Mutex(State())
}

private let fileSinkProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let watch = Unmanaged<FileSinkWatch>.fromOpaque(context).takeUnretainedValue()
    let isBuffer = info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0
    if !isBuffer && data.assumingMemoryBound(to: GstEvent.self).pointee.type != GST_EVENT_EOS {
        return GST_PAD_PROBE_OK
    }
    let onDisk = watch.lock.withLock { state in
        if state.frameGiven { state.frameOnDisk = true }
        if isBuffer && data.assumingMemoryBound(to: GstBuffer.self).pointee.duration != GstClockTime.max {
            state.frameGiven = true
        }
        return state.frameOnDisk
    }
    // Known for good: no lock per buffer for the rest of the stream.
    return onDisk ? GST_PAD_PROBE_REMOVE : GST_PAD_PROBE_OK
}
