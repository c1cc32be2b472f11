// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// The files an SVG refers to (`href`, `xlink:href`, CSS `url(…)`), which librsvg opens by itself,
/// blocking, relative to the SVG's folder: each must be a regular file or absent, or a FIFO among
/// them would make the render wait for a writer forever. Fragments (`#id`) and `data:` URIs are
/// the SVG's own.
enum SVGReferences {
    /// Throws when a file `svg` (read from `url`) refers to is there but is not a regular file.
    static func check(_ svg: Data, of url: URL) throws(RenderError) {
        let text = String(decoding: svg, as: UTF8.self)
        let folder = url.deletingLastPathComponent()
        for reference in references(in: text) {
            var path = reference.removingPercentEncoding ?? reference
            if path.hasPrefix("file://") { path.removeFirst("file://".count) }
            if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = String(path[..<cut]) }
            guard !path.isEmpty, !path.contains("://") else { continue }
            let target = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
            do { try RegularFile.check(target) } catch {
                guard case .notRegular = error else { continue }
                throw .imageUnreadable(
                    url,
                    reason: "the SVG refers to \(target.path), which \(error); "
                        + "embed the picture in the SVG or point it at a PNG file")
            }
        }
    }

    /// The references in `svg` that name a file under its own folder (relative, no `..`): the
    /// only ones librsvg 2.54 loads, and what `SVGFolder` copies.
    static func relativePaths(in svg: Data) -> [String] {
        var paths: Set<String> = []
        for reference in references(in: String(decoding: svg, as: UTF8.self)) {
            var path = reference.removingPercentEncoding ?? reference
            if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = String(path[..<cut]) }
            let parts = path.split(separator: "/")
            guard !path.isEmpty, !path.contains(":"), !path.hasPrefix("/"), !parts.contains("..") else { continue }
            paths.insert(parts.filter { $0 != "." }.joined(separator: "/"))
        }
        return paths.filter { !$0.isEmpty }.sorted()
    }

    /// The values of `href=` attributes and `url(…)` in `text`, less fragments and `data:` URIs.
    static func references(in text: String) -> [String] {
        var found: [String] = []
        for pattern in [#"href\s*=\s*"([^"]*)""#, #"href\s*=\s*'([^']*)'"#, #"url\(\s*["']?([^"')]*)["']?\s*\)"#] {
            guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
            let range = NSRange(text.startIndex..., in: text)
            for match in expression.matches(in: text, range: range) {
                guard let value = Range(match.range(at: 1), in: text).map({ String(text[$0]) }) else { continue }
                let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
                if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.lowercased().hasPrefix("data:") { continue }
                found.append(trimmed)
            }
        }
        return found
    }
}
