import Foundation
package import Media
import Presets
package import Render

/// Puts a preset's marks on frames. Renders each distinct mark once (keyed by its resolved form:
/// expanded text, style and pixel sizes) and reuses the overlay for every frame that resolves the
/// same way, so a still scene costs only the blend and a clock re-renders once a second.
///
/// Not thread-safe: one Marker per thread (it owns a renderer with its own font map).
public final class Marker {
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
    private var overlays: [Key: (rendered: RenderedMark, image: OverlayImage?)] = [:]
    private var lastKey: [Key] = []
    private var lastComposition = OverlayComposition([])
    /// How many overlays were rendered (not served from the cache), for tests and stats.
    public private(set) var renderCount = 0

    /// A marker for `preset` with `variables` overriding the preset's own.
    public init(preset: Preset, variables: [String: String]) {
        self.preset = preset
        self.variables = preset.variables(overriddenBy: variables)
    }

    /// A template context for a frame of `width`×`height` with this marker's variables.
    public func context(width: Int, height: Int, captureDate: Date = Date(), frame: Int? = nil,
                        fps: Double? = nil) -> TemplateContext {
        TemplateContext(captureDate: captureDate, width: width, height: height, frame: frame, fps: fps,
                        variables: variables)
    }

    /// The composition for one frame. Cheap when nothing changed since the last frame.
    package func composition(width: Int, height: Int, context: TemplateContext) throws(CamStampError) -> OverlayComposition {
        let key = preset.marks.map { Key(mark: $0.resolved(width: width, height: height, context: context), width: width, height: height) }
        if key == lastKey { return lastComposition }
        var placements: [OverlayComposition.Placement] = []
        for entryKey in key {
            let entry = try overlay(for: entryKey)
            guard let image = entry.image else { continue }
            for origin in entry.rendered.origins {
                placements.append(.init(image: image, x: Int(origin.x), y: Int(origin.y)))
            }
        }
        lastKey = key
        lastComposition = OverlayComposition(placements)
        return lastComposition
    }

    /// Blends the marks into `frame` in place.
    package func mark(_ frame: VideoFrame, context: TemplateContext) throws(CamStampError) {
        let composition = try composition(width: frame.width, height: frame.height, context: context)
        do { try composition.blend(into: frame) } catch { throw .failure("mark: \(error)") }
    }

    private func overlay(for key: Key) throws(CamStampError) -> (rendered: RenderedMark, image: OverlayImage?) {
        if let cached = overlays[key] { return cached }
        let rendered: RenderedMark
        do {
            rendered = try renderer.render(key.mark, frameWidth: key.width, frameHeight: key.height)
        } catch {
            throw .usage("preset '\(preset.name)': \(error)")
        }
        renderCount += 1
        var image: OverlayImage?
        let bitmap = rendered.bitmap
        if !bitmap.isEmpty {
            do {
                image = try bitmap.pixels.withUnsafeBytes {
                    try OverlayImage(width: bitmap.width, height: bitmap.height, stride: bitmap.stride, premultipliedBGRA: $0)
                }
            } catch {
                throw .failure("overlay: \(error)")
            }
        }
        // A clock makes a new key every second: keep the cache from growing without bound, but
        // keep what the current frame shows (a logo beside the clock is not rendered again).
        if overlays.count >= 32 {
            let current = Set(lastKey)
            overlays = overlays.filter { current.contains($0.key) }
        }
        overlays[key] = (rendered, image)
        return (rendered, image)
    }
}
