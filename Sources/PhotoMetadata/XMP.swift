import Foundation

/// Edits of an XMP packet for an output: text substitutions on the serialized RDF, which keep
/// every other byte of the packet (a full XML round trip would reformat it).
enum XMPEdit {
    /// `xmp` with `tiff:Orientation` set to 1 (attribute or element form) and, with `stripGPS`,
    /// every `exif:GPS…` property removed.
    static func forOutput(_ xmp: String, stripGPS: Bool) -> String {
        var text = xmp.replacing(#/(tiff:Orientation\s*=\s*)(?:"[^"]*"|'[^']*')/#) { match in
            match.output.1 + "\"1\""
        }
        text = text.replacing(#/(<tiff:Orientation(?:\s[^>]*)?>)[^<]*(</tiff:Orientation\s*>)/#) { match in
            match.output.1 + "1" + match.output.2
        }
        guard stripGPS else { return text }
        // Attributes: ` exif:GPSLatitude="48,51.5N"`.
        text = text.replacing(#/\s+exif:GPS[A-Za-z0-9]*\s*=\s*(?:"[^"]*"|'[^']*')/#, with: "")
        // Empty elements, then elements with content (lazily up to their own end tag), each with
        // the indentation and line break around it.
        text = text.replacing(#/[ \t]*<exif:GPS[A-Za-z0-9]*(?:\s[^>]*)?/>[ \t]*\r?\n?/#, with: "")
        text = text.replacing(
            #/[ \t]*<exif:(GPS[A-Za-z0-9]*)(?:\s[^>]*)?>.*?</exif:\1\s*>[ \t]*\r?\n?/#.dotMatchesNewlines(),
            with: "")
        return text
    }

    /// The value of `tiff:Orientation` in either form, or nil.
    static func orientation(_ xmp: String) -> Int? {
        if let m = xmp.firstMatch(of: #/tiff:Orientation\s*=\s*["']\s*(\d+)/#) { return Int(m.output.1) }
        if let m = xmp.firstMatch(of: #/<tiff:Orientation(?:\s[^>]*)?>\s*(\d+)/#) { return Int(m.output.1) }
        return nil
    }
}
