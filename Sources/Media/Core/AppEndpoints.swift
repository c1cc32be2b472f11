// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo

// Where Swift meets a pipeline: appsink (Swift takes buffers) and appsrc (Swift gives them). Their
// defaults are each a trap (docs/architecture.md, "GStreamer rules learned the hard way"), so every
// appsink and appsrc camstamp drives is set up here, the reason beside each setting.

/// How an appsink hands buffers to Swift.
struct AppSinkSettings {
    /// Buffers queued for Swift; appsink's default (0) is unbounded: 1.2 GB for 3000 small frames.
    var maxBuffers: Int
    /// When the queue is full: drop the oldest (live: the camera never waits for Swift) or block
    /// the producer (files and photos: every buffer counts).
    var drop: Bool
    /// Hand buffers over at their time on the clock (live capture) or as soon as they come.
    var sync: Bool
    /// false for a sink in one branch of a tee that must not hold the others' start (a network
    /// relay's tap prerolls only when its branch has data).
    var async = true

    /// A live capture: a short queue, the oldest frame dropped rather than the camera stalled.
    static func live(maxBuffers: Int) -> AppSinkSettings {
        AppSinkSettings(maxBuffers: maxBuffers, drop: true, sync: true)
    }
    /// Files and photos: a short queue, the producer waits, nothing is dropped.
    static func everyBuffer(maxBuffers: Int) -> AppSinkSettings {
        AppSinkSettings(maxBuffers: maxBuffers, drop: false, sync: false)
    }
    /// Encoded data taken off a tee for another pipeline: never paced, never holding the tee.
    static let tap = AppSinkSettings(maxBuffers: 300, drop: true, sync: false, async: false)
}

/// How an appsrc takes buffers from Swift.
struct AppSrcSettings {
    /// Buffers queued before the element (`block`) makes `push` wait or (`leaky`) drops the oldest.
    var maxBuffers: Int
    /// true: a push into a full queue waits (a file must get every frame); false: it is taken and
    /// the caller checks the level first (FrameOutput drops and counts frames the encoder cannot take).
    var block: Bool
    /// A live source (its buffers are stamped on the clock, as a camera's); nil leaves the template's.
    var isLive: Bool?
    /// When full, drop the oldest buffer instead (a network relay that is still connecting).
    var leaky = false

    static func frames(maxBuffers: Int, block: Bool) -> AppSrcSettings {
        AppSrcSettings(maxBuffers: maxBuffers, block: block, isLive: nil)
    }
    /// A network relay's feed: live, the oldest buffers leaked while a connection is made, so
    /// memory stays bounded.
    static let relay = AppSrcSettings(maxBuffers: 600, block: false, isLive: true, leaky: true)
}

extension Element {
    /// Sets up this appsink as `settings` says (before the pipeline starts).
    func configure(_ settings: AppSinkSettings) throws(MediaError) {
        try set("max-buffers", settings.maxBuffers)
        try set("drop", settings.drop)
        // appsink otherwise keeps a ref to the last sample, so the buffer Swift pulls is shared and
        // making it writable deep-copies every frame (0.2-1 ms at 1080p).
        try set("enable-last-sample", false)
        try set("sync", settings.sync)
        try set("async", settings.async)
    }

    /// Sets up this appsrc as `settings` says (before the pipeline starts).
    func configure(_ settings: AppSrcSettings) throws(MediaError) {
        // appsrc defaults to format=bytes: x264enc and mp4mux then write a 0-second file and exit 0.
        try set("format", "time")
        try set("block", settings.block)
        try set("max-buffers", settings.maxBuffers)
        // Count buffers only: the default 200 kB is less than one 1080p frame.
        try set("max-bytes", 0)
        try set("max-time", 0)
        if let isLive = settings.isLive { try set("is-live", isLive) }
        if settings.leaky { try set("leaky-type", "downstream") }
    }

    /// This element as the appsink it is (the caller got it by its template name).
    var appSink: UnsafeMutablePointer<GstAppSink> { gcast(pointer) }
    /// This element as the appsrc it is (the caller got it by its template name).
    var appSource: UnsafeMutablePointer<GstAppSrc> { gcast(pointer) }
}

/// The caps an appsrc was last given, so they are set only when they change (setting them
/// renegotiates the pipeline).
final class CapsTracker {
    private var current: UnsafeMutablePointer<GstCaps>?

    deinit { if let current { gst_caps_unref(current) } }

    /// Gives `caps` to `source` unless they are the ones it has.
    func update(_ caps: UnsafeMutablePointer<GstCaps>, on source: UnsafeMutablePointer<GstAppSrc>) {
        if let current, gst_caps_is_equal(current, caps) != 0 { return }
        gst_app_src_set_caps(source, caps)
        if let current { gst_caps_unref(current) }
        current = gst_caps_ref(caps)
    }
}
