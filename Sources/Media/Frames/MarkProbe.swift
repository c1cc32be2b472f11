// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation

/// What becomes of a frame that passed the marks' element.
public enum MarkVerdict {
    /// Marked (or left as it is on purpose): it goes on downstream.
    case pass
    /// Left out on purpose (the encoder is behind, the stream has ended): no failure.
    case drop
    /// It could not be marked: it is dropped, and so is every frame after it; the pipeline's
    /// owner reports `failure`.
    case fail(Error)
}

/// Marks frames in place as they leave the element named `mark` of a pipeline: a buffer pad probe
/// on its source pad, so no appsink/appsrc hop and no copy. Shared by the clip (`ClipPipeline`)
/// and the live stream (`LiveStream`): one rule for how a frame is borrowed, counted and refused.
///
/// The counts and the failure are guarded by `lock` (the probe runs on the streaming thread,
/// its owner reads them from another).
final class MarkProbe: @unchecked Sendable {
    /// Frame by frame: the frame to draw on in place, its 0-based number and its timestamp (ns).
    typealias Action = (VideoFrame, Int, UInt64?) -> MarkVerdict

    let lock = NSLock()
    var action: Action?
    /// The first failure (of the action, or a frame without raw-video caps); every frame after
    /// it is dropped.
    var failure: Error?
    /// Frames that reached the probe.
    var frames = 0
    /// Frames whose pixels reached the probe still shared (a decoder keeps a frame as a reference
    /// for a while), and so were copied whole to be marked: the queue before the marks is there to
    /// keep this near zero.
    var shared = 0
    /// Marked frames alive downstream now, and the most at once: what the encoder holds. Each
    /// frame carries a token (a parent-buffer meta on an empty buffer) that dies with the frame's
    /// metas: when the frame is freed, or goes back to its pool, which clears them.
    /// Counted only where the owner asks (the clip's tests): a token per frame is an allocation more.
    var countsHeld = false
    var held = 0
    var mostHeld = 0
    /// The video info of the caps last seen, parsed once per caps rather than once per frame.
    private var cachedCaps: UnsafeMutablePointer<GstCaps>?
    private var cachedInfo = GstVideoInfo()

    deinit { if let cachedCaps { gst_caps_unref(cachedCaps) } }

    /// Installs the probe on the source pad of `pipeline`'s element `name`; the pad keeps this
    /// object alive for as long as the probe is installed.
    func install(on pipeline: Pipeline, element name: String) throws(MediaError) {
        let element = try pipeline.element(named: name)
        guard let pad = gst_element_get_static_pad(element.pointer, "src") else {
            throw .missingNamedElement(name: name, pipeline: pipeline.description)
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, markProbe, Unmanaged.passRetained(self).toOpaque()) {
            if let context = $0 { Unmanaged<AnyObject>.fromOpaque(context).release() }
        }
    }

    /// Blends in place as a frame passes (streaming thread). Never throws or traps: a failure is
    /// recorded, the frame dropped, and the owner reports it.
    fileprivate func mark(
        pad: UnsafeMutablePointer<GstPad>, info: UnsafeMutablePointer<GstPadProbeInfo>,
        data: UnsafeMutableRawPointer
    ) -> GstPadProbeReturn {
        guard let action = lock.withLock({ failure == nil ? self.action : nil }) else { return GST_PAD_PROBE_DROP }
        // Ours alone after the source or decoder; if not, this swaps in a writable copy, and mapping
        // it to blend copies the pixels that are still shared.
        let buffer: UnsafeMutablePointer<GstBuffer> = gcast(
            gst_mini_object_make_writable(data.assumingMemoryBound(to: GstMiniObject.self)))
        if gst_buffer_is_all_memory_writable(buffer) == 0 { lock.withLock { shared += 1 } }
        info.pointee.data = UnsafeMutableRawPointer(buffer)
        let index = lock.withLock { () -> Int in
            defer { frames += 1 }
            return frames
        }
        let pts = buffer.pointee.pts == GstClockTime.max ? nil : UInt64(buffer.pointee.pts)
        // A frame that cannot be marked fails the run, never goes out unmarked (as for photos).
        let verdict: MarkVerdict
        do {
            verdict = action(VideoFrame(borrowing: buffer, caps: try caps(on: pad), info: cachedInfo), index, pts)
        } catch {
            verdict = .fail(error)
        }
        switch verdict {
        case .pass:
            if countsHeld, let token = gst_buffer_new() {
                lock.withLock {
                    held += 1
                    mostHeld = max(mostHeld, held)
                }
                gst_mini_object_weak_ref(gcast(token), frameReleased, Unmanaged.passRetained(self).toOpaque())
                _ = gst_buffer_add_parent_buffer_meta(buffer, token)
                gst_mini_object_unref(gcast(token))
            }
            return GST_PAD_PROBE_OK
        case .drop:
            return GST_PAD_PROBE_DROP
        case .fail(let error):
            lock.withLock { failure = failure ?? error }
            return GST_PAD_PROBE_DROP
        }
    }

    /// The caps on `pad` now (their video info in `cachedInfo`); a frame without caps, or not
    /// raw video, is refused through the one `rawVideoInfo` check.
    private func caps(on pad: UnsafeMutablePointer<GstPad>) throws(MediaError) -> UnsafeMutablePointer<GstCaps> {
        guard let caps = gst_pad_get_current_caps(pad) else { throw .notRawVideo(element: "mark", caps: "no caps") }
        defer { gst_caps_unref(caps) }
        if cachedCaps == nil || gst_caps_is_equal(cachedCaps, caps) == 0 {
            cachedInfo = try rawVideoInfo(caps, at: "mark")
            if let cachedCaps { gst_caps_unref(cachedCaps) }
            cachedCaps = gst_caps_ref(caps)
        }
        return cachedCaps!
    }
}

/// A marked frame's token is freed with its metas (any thread): one frame fewer held downstream.
private let frameReleased: GstMiniObjectNotify = { context, _ in
    guard let context else { return }
    let probe = Unmanaged<MarkProbe>.fromOpaque(context).takeRetainedValue()
    probe.lock.withLock { probe.held -= 1 }
}

private let markProbe: GstPadProbeCallback = { pad, info, context in
    guard let pad, let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    return Unmanaged<MarkProbe>.fromOpaque(context).takeUnretainedValue().mark(pad: pad, info: info, data: data)
}
