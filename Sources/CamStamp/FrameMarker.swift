// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
package import Media
import Presets
package import Render

/// Puts a preset's marks on frames. Renders each distinct mark once (keyed by its resolved form:
/// expanded text, style and pixel sizes) and reuses the overlay for every frame that resolves the
/// same way, so a still scene costs only the blend and a clock re-renders once a second.
///
/// Not thread-safe: one FrameMarker per thread (it owns a renderer with its own font map).
public final class FrameMarker {
    /// The marks, stacked.
    public let preset: Preset
    /// The variables the marks see: the preset's own, overridden by those given.
    public let variables: [String: String]
    private let renderer = MarkRenderer()
    /// A rendered mark depends on the frame's size, not only on its short side: where it lands
    /// (and how many tiles) changes between a landscape and a portrait photo of equal short side.
    private struct Key: Hashable {
        var mark: ResolvedMark
        var width: Int
        var height: Int
    }
    private var overlays: [Key: Overlay] = [:]
    /// A rendered mark cut to what the frame shows of it, and where each copy of it goes.
    private struct Overlay {
        var image: OverlayImage?
        var origins: [(x: Int, y: Int)]
    }
    private var lastKey: [Key] = []
    private var lastComposition = OverlayComposition([])
    /// How many overlays were rendered (not served from the cache), for tests and stats.
    public private(set) var renderCount = 0
    /// Where the frames are taken, for the location variables (shoot, camera, stream).
    var location: LocationFeed? {
        // The gazetteer loads once, away from the frames' thread.
        didSet { if locationFields.contains(.place) { LocationFeed.prepareGazetteer() } }
    }
    /// The location variables the marks show.
    let locationFields: Set<LocationField>

    /// A marker for `preset` with `variables` overriding the preset's own.
    public init(preset: Preset, variables: [String: String]) {
        self.preset = preset
        self.variables = preset.variables(overriddenBy: variables)
        locationFields = preset.locationFields
    }

    /// A marker whose frames are taken where `location` says.
    convenience init(preset: Preset, variables: [String: String], location: LocationFeed?) {
        self.init(preset: preset, variables: variables)
        self.location = location
    }

    /// A template context for a frame of `width`×`height` with this marker's variables.
    public func context(
        width: Int, height: Int, captureDate: Date = Date(), frame: Int? = nil,
        fps: Double? = nil
    ) -> TemplateContext {
        var context = TemplateContext(
            captureDate: captureDate, width: width, height: height, frame: frame, fps: fps,
            variables: variables)
        location?.fill(&context, fields: locationFields)
        return context
    }

    /// The composition for one frame. Cheap when nothing changed since the last frame.
    package func composition(
        width: Int, height: Int, context: TemplateContext
    ) throws(CamStampError) -> OverlayComposition {
        let key = preset.marks.map {
            Key(mark: $0.resolved(width: width, height: height, context: context), width: width, height: height)
        }
        if key == lastKey { return lastComposition }
        var placements: [OverlayComposition.Placement] = []
        for entryKey in key {
            let entry = try overlay(for: entryKey)
            guard let image = entry.image else { continue }
            for origin in entry.origins {
                placements.append(.init(image: image, x: origin.x, y: origin.y))
            }
        }
        lastKey = key
        lastComposition = OverlayComposition(placements)
        return lastComposition
    }

    /// What the last composition drew, mark by mark (for the Content Credentials' actions).
    package var drawnContents: [ResolvedMark.Content] { lastKey.map(\.mark.content) }

    /// Blends the marks into `frame` in place.
    package func mark(_ frame: VideoFrame, context: TemplateContext) throws(CamStampError) {
        let composition = try composition(width: frame.width, height: frame.height, context: context)
        do { try composition.blend(into: frame) } catch { throw .failure("mark: \(error)") }
    }

    private func overlay(for key: Key) throws(CamStampError) -> Overlay {
        if let cached = overlays[key] { return cached }
        let rendered: RenderedMark
        do {
            rendered = try renderer.render(key.mark, frameWidth: key.width, frameHeight: key.height)
        } catch {
            throw .usage("preset '\(preset.name)': \(error)")
        }
        renderCount += 1
        var overlay = Overlay(image: nil, origins: [])
        let bitmap = rendered.bitmap
        if !bitmap.isEmpty,
            let shown = Self.shownPart(of: bitmap, at: rendered.origins, frameWidth: key.width, frameHeight: key.height)
        {
            do {
                overlay.image = try bitmap.pixels.withUnsafeBytes { pixels throws(MediaError) in
                    let start = UnsafeRawBufferPointer(rebasing: pixels[(shown.y * bitmap.stride + shown.x * 4)...])
                    return try OverlayImage(
                        width: shown.width, height: shown.height, stride: bitmap.stride, premultipliedBGRA: start)
                }
            } catch {
                throw .failure("overlay: \(error)")
            }
            overlay.origins = rendered.origins.map { (x: Int($0.x) + shown.x, y: Int($0.y) + shown.y) }
        }
        // A clock makes a new key every second: keep the cache from growing without bound, but
        // keep what the current frame shows (a logo beside the clock is not rendered again).
        if overlays.count >= 32 {
            let current = Set(lastKey)
            overlays = overlays.filter { current.contains($0.key) }
        }
        overlays[key] = overlay
        return overlay
    }

    /// The smallest rectangle of `bitmap` holding every pixel that lands on the
    /// `frameWidth`×`frameHeight` frame when the bitmap is placed at each of `origins`; nil when
    /// none does. Only that part is converted and blended, and a mark is converted again each time
    /// its text changes (`{frame}`): a wide outline or a big text reaching far past the frame cost
    /// its whole image, mostly off the frame, every frame (a 100% outline on a 360p clip: ~55x the
    /// CPU of the plain mark).
    static func shownPart(
        of bitmap: Bitmap, at origins: [Point], frameWidth: Int, frameHeight: Int
    )
        -> (x: Int, y: Int, width: Int, height: Int)?
    {
        var union: (x0: Int, y0: Int, x1: Int, y1: Int)?
        for origin in origins {
            let x = Int(origin.x), y = Int(origin.y)
            let x0 = max(0, -x), y0 = max(0, -y)
            let x1 = min(bitmap.width, frameWidth - x), y1 = min(bitmap.height, frameHeight - y)
            guard x0 < x1, y0 < y1 else { continue }
            union = union.map { (min($0.x0, x0), min($0.y0, y0), max($0.x1, x1), max($0.y1, y1)) } ?? (x0, y0, x1, y1)
        }
        return union.map { (x: $0.x0, y: $0.y0, width: $0.x1 - $0.x0, height: $0.y1 - $0.y0) }
    }
}

/// The name `FrameMarker` had before 0.2: kept so that code written against it still builds.
@available(*, deprecated, renamed: "FrameMarker")
public typealias Marker = FrameMarker
