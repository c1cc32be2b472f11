// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// The state the camera loop and the web server share, behind one lock: what the page has set,
/// the photos asked for and taken, and what went wrong last.
final class CameraSession: @unchecked Sendable {
    /// What the page (or the window's keys) can change.
    struct Settings: Equatable, Sendable {
        var grid = false
        var square = false
        var mirror = false
        /// Seconds before a photo (0, 3 or 10); the page counts down, the window waits.
        var timer = 0
        var burstCount = 1
        var burstInterval = 1.0
        var presets: [String] = []
        var text: String?
        var variables: [String: String] = [:]
        var source: SourceSpec = .test
        /// Camera controls the page set, by V4L2 name; checked against the camera's own.
        var controls: [String: Int] = [:]
        /// Degrees clockwise the picture is turned (0, 90, 180, 270): a camera on its side.
        var rotate = 0
        /// Bumped when a preset in force changed on disk (a mark moved on the page): reloaded.
        var marksRevision = 0
    }

    /// A photo written since the camera started.
    struct Shot: Sendable, Equatable {
        var name: String
        var path: String
        var width: Int
        var height: Int
        var taken: Date
        /// The file as written (`stat`), so that no other file is ever served under its name.
        var device: UInt64 = 0
        var inode: UInt64 = 0
        /// The camera loop's number of the frame it is (`{frame}`).
        var frame: Int?
        /// `--invisible`: the instance id the photo's invisible mark carries.
        var invisible: String?
    }

    /// A photo asked for and not yet taken; `done` is called once, from the writer's thread.
    struct ShotRequest: Sendable {
        var done: @Sendable (Result<Shot, CamStampError>) -> Void
        /// When the shutter was pressed (a timed photo: when its time came): the photo is the
        /// frame on screen then.
        var pressed: ContinuousClock.Instant = .now
        /// The settings' version then: the photo holds every change made before the press.
        var version = 0
    }

    private let lock = NSLock()
    private var _settings: Settings
    private var _version = 0
    private var pending: [ShotRequest] = []
    private var timed: [(due: ContinuousClock.Instant, version: Int)] = []
    private var _shots: [Shot] = []
    private var _lastError: String?
    private var _frameSize: FrameSize?
    private var _previewSize: FrameSize?
    private var _sourceName = ""
    private var _controls: (controls: [ViewfinderControl], reason: String?) = ([], nil)
    private var stopping = false
    private var _liveFrame: (frame: VideoFrame, taken: ContinuousClock.Instant)?

    /// The position the marks and photos get; the page's position goes here.
    let location: LocationFeed?

    init(settings: Settings, location: LocationFeed? = nil) {
        _settings = settings
        self.location = location
    }

    var settings: Settings { lock.withLock { _settings } }
    /// Bumped by every change, so the loop notices one without comparing every field.
    var version: Int { lock.withLock { _version } }

    func update(_ change: (inout Settings) -> Void) {
        lock.withLock {
            change(&_settings)
            _version += 1
        }
    }

    /// Queues a photo for the next frame; refused once the camera is stopping.
    func requestShot(_ done: @escaping @Sendable (Result<Shot, CamStampError>) -> Void) {
        let accepted = lock.withLock { () -> Bool in
            guard !stopping else { return false }
            pending.append(ShotRequest(done: done, pressed: .now, version: _version))
            return true
        }
        if !accepted { done(.failure(.failure("the camera is stopping; no more photos"))) }
    }

    /// A photo after `delay` (the window's timer).
    func requestShot(after delay: Duration) {
        lock.withLock { timed.append((.now + delay, _version)) }
    }

    /// The photos due now: those asked for, and timed ones whose time has come (`timedDone` is
    /// what a timed one reports through).
    func takeShotRequests(timedDone: @escaping @Sendable (Result<Shot, CamStampError>) -> Void) -> [ShotRequest] {
        lock.withLock {
            let now = ContinuousClock.now
            let due = timed.filter { $0.due <= now }
            timed.removeAll { $0.due <= now }
            defer { pending.removeAll() }
            return pending + due.map { ShotRequest(done: timedDone, pressed: $0.due, version: $0.version) }
        }
    }

    /// No more photos; those still waiting are refused.
    func stop() {
        let refused = lock.withLock { () -> [ShotRequest] in
            stopping = true
            defer { pending.removeAll() }
            return pending
        }
        for request in refused { request.done(.failure(.failure("the camera is stopping; no more photos"))) }
    }

    func addShot(_ shot: Shot) { lock.withLock { _shots.append(shot) } }
    /// Forgets the photo named `name` (deleted from the page).
    func removeShot(named name: String) { lock.withLock { _shots.removeAll { $0.name == name } } }

    /// A copy of the camera's frame, unmarked, kept a moment for the presets' thumbnails.
    func offerLiveFrame(_ frame: VideoFrame) {
        let due = lock.withLock { _liveFrame.map { $0.taken + .milliseconds(500) <= .now } ?? true }
        guard due else { return }
        let copy = frame.copy()
        lock.withLock { _liveFrame = (copy, .now) }
    }

    /// The latest frame kept by `offerLiveFrame`, with when it was kept.
    var liveFrame: (frame: VideoFrame, taken: ContinuousClock.Instant)? { lock.withLock { _liveFrame } }
    var shots: [Shot] { lock.withLock { _shots } }

    /// The photo named `name` that this camera wrote, if any (nothing else is ever served).
    func shot(named name: String) -> Shot? { lock.withLock { _shots.first { $0.name == name } } }

    var lastError: String? {
        get { lock.withLock { _lastError } }
        set { lock.withLock { _lastError = newValue } }
    }

    func setCamera(name: String, controls: (controls: [ViewfinderControl], reason: String?)) {
        lock.withLock {
            _sourceName = name
            _controls = controls
        }
    }

    func setSizes(frame: FrameSize, preview: FrameSize) {
        lock.withLock {
            _frameSize = frame
            _previewSize = preview
        }
    }

    var sizes: (frame: FrameSize?, preview: FrameSize?) { lock.withLock { (_frameSize, _previewSize) } }
    var camera: (name: String, controls: [ViewfinderControl], reason: String?) {
        lock.withLock { (_sourceName, _controls.controls, _controls.reason) }
    }
}
