// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// The folder librsvg resolves an SVG's references in: a private one holding copies of only the
/// regular files `SVGReferences` found, at the same relative paths. librsvg opens what an SVG
/// refers to by itself, blocking, and a reference a scanner cannot see (a character entity, an
/// internal `<!ENTITY>`, CSS `@import`, `xi:include`) to a FIFO beside the SVG would make it wait
/// for a writer forever; in this folder such a name is simply absent. librsvg 2.54 loads nothing
/// outside its base file's folder, so nothing else is reachable.
final class SVGFolder {
    /// The largest file an SVG may refer to: a logo's picture, not a 10 GB file read whole.
    static let maxReferencedBytes = 32 << 20

    let folder: URL
    /// Where librsvg is told the SVG is.
    let base: URL

    init(svg: Data, of url: URL) throws(RenderError) {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("camstamp-svg.XXXXXX").path
        var path = Array(template.utf8CString)
        guard mkdtemp(&path) != nil else {
            throw .imageUnreadable(
                url, reason: "cannot make a private folder for its references (\(String(cString: strerror(errno))))")
        }
        folder = URL(fileURLWithPath: String(cString: path), isDirectory: true)
        base = folder.appendingPathComponent(url.lastPathComponent)
        do {
            for reference in SVGReferences.relativePaths(in: svg) {
                try copy(reference, from: url.deletingLastPathComponent(), svg: url)
            }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Copies `relative` (under the SVG's folder) in, when it is a regular file; anything else is
    /// left out, and librsvg finds nothing there.
    private func copy(_ relative: String, from source: URL, svg url: URL) throws(RenderError) {
        let target = source.appendingPathComponent(relative)
        let contents: Data
        do {
            contents = try RegularFile.contents(of: target, limit: Self.maxReferencedBytes)
        } catch {
            if case .tooLarge(let bytes, _) = error {
                throw .imageUnreadable(
                    url,
                    reason: "the SVG refers to \(target.path), \(bytes >> 20) MB, more than the "
                        + "\(Self.maxReferencedBytes >> 20) MB a mark's picture may be")
            }
            return
        }
        let copy = folder.appendingPathComponent(relative)
        do {
            try FileManager.default.createDirectory(
                at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: copy)
        } catch {
            throw .imageUnreadable(url, reason: "cannot copy \(target.path) for it (\(error.localizedDescription))")
        }
    }
}
