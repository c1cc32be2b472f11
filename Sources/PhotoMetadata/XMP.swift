// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import FoundationXML

/// The XMP packet of an output, edited through exiv2 (namespace-aware: a property is known by its
/// namespace URI, whatever prefix the packet binds to it): `tiff:Orientation` 1, the pixel size
/// where the packet states one, thumbnails removed, location removed with `stripGPS`, the
/// `--set-metadata` credit written. A packet that needs none of this is carried byte for byte.
enum XMPEdit {
    enum Result: Equatable {
        /// The packet as it was.
        case unchanged
        /// The edited packet; nil when no property is left.
        case edited(Data?)
    }

    /// The most key removals × keys an edit may cost. gexiv2 removes one key at a time, each a
    /// scan and a shift of exiv2's whole list, so thousands of location properties in a 1 MB
    /// packet would take many seconds; past this (about 0.3 s) the packet is left out instead,
    /// which also leaves out its location.
    static let removalBudget = 4_000_000

    /// Edits `packet` (nil: none in the source, so one is made only for `edits`). Throws when exiv2
    /// cannot read the packet, or when removing its properties would take too long.
    static func forOutput(
        _ packet: Data?, size: PixelSize?, stripGPS: Bool,
        edits: MetadataEdits
    ) throws(Exiv2Error) -> Result {
        let credit = edits.artist != nil || edits.copyright != nil
        if packet == nil && !credit { return .unchanged }
        return try Exiv2.serialized { () throws(Exiv2Error) -> Result in
            let document = try XMPDocument(packet: packet)
            // Fields inside structs keep the packet's own prefixes in exiv2's keys; what they are
            // bound to is read from the packet (the first step has exiv2's prefix, which exiv2
            // resolves). Under the same lock: one XML parse at a time, whatever libxml2's setup.
            let nested = packet.map(XMPNamespace.bindings) ?? [:]
            var changed = false
            let keys = document.keys
            let present = Set(keys)

            let (removed, containers) = keysToRemove(
                keys, present: present, nested: nested, stripGPS: stripGPS, edits: edits)
            let removals = removed.count + containers.count
            guard removals * keys.count <= removalBudget else {
                throw .tooManyRemovals(removals, of: keys.count)
            }
            for key in removed { try document.remove(key) }
            // Deepest first, so an array is never re-created by a struct left inside it.
            for node in containers.sorted(by: { $0.utf8.count > $1.utf8.count }) {
                try document.remove(node, isContainer: true)
            }
            changed = removals > 0

            if try setValues(in: document, present: present, size: size, edits: edits) { changed = true }
            if let instanceID = edits.instanceID,
                try derive(document, present: present, instanceID: instanceID)
            {
                changed = true
            }
            return changed
                ? .edited(try document.packet().map { XMPNamespace.restoringURIs($0, from: nested) }) : .unchanged
        }
    }

    /// The keys to remove from `document`, and the struct and array nodes above them that hold
    /// no value of their own (`nested`: the namespaces each of the packet's prefixes is bound to).
    private static func keysToRemove(
        _ keys: [String], present: Set<String>, nested: [String: Set<String>], stripGPS: Bool,
        edits: MetadataEdits
    ) -> (removed: [String], containers: Set<String>) {
        // Whole properties to remove: a key goes with the first step on its path that a rule
        // names (`Xmp.xmpMM.Pantry[1]/exif:GPSLatitude` alone, `Xmp.iptcExt.LocationShown`
        // with everything below it).
        var uris: [String: String?] = [:]
        var removed: [String] = []
        var containers = Set<String>()
        for key in keys {
            guard let path = XMPKeyPath(key) else { continue }
            for (index, step) in path.steps.enumerated() {
                let uri = uris[step.prefix] ?? XMPDocument.namespace(ofPrefix: step.prefix)
                uris[step.prefix] = uri
                var candidates: Set<String> = uri.map { [$0] } ?? []
                if index > 0 {
                    // A prefix bound to several namespaces in one packet goes if any says so.
                    candidates.formUnion(nested[step.prefix] ?? [])
                }
                guard
                    candidates.contains(where: {
                        XMPNamespace.removes(uri: $0, name: step.name, stripGPS: stripGPS, credit: edits)
                    })
                else { continue }
                removed.append(key)
                // The struct and array nodes from the root down hold no value, so they are
                // not among `keys`: each is a prefix ending where a `[n]` or a `/field` starts.
                for (offset, character) in key.utf8.enumerated()
                where (character == UInt8(ascii: "[") || character == UInt8(ascii: "/"))
                    && offset >= step.key.utf8.count
                {
                    let node = String(key.utf8.prefix(offset))!
                    if !present.contains(node) { containers.insert(node) }
                }
                break
            }
        }
        return (removed, containers)
    }

    /// Sets the orientation and pixel size the packet states, and the `--set-metadata` credit;
    /// whether that changed anything.
    private static func setValues(
        in document: XMPDocument, present: Set<String>, size: PixelSize?, edits: MetadataEdits
    ) throws(Exiv2Error) -> Bool {
        var changed = false
        // The pixels are upright (unless stamped as stored) and may be scaled: the packet must
        // not say otherwise.
        var values: [(key: String, value: String)] = edits.keepsOrientation ? [] : [("Xmp.tiff.Orientation", "1")]
        if let size {
            values += [
                ("Xmp.exif.PixelXDimension", "\(size.width)"), ("Xmp.exif.PixelYDimension", "\(size.height)"),
                ("Xmp.tiff.ImageWidth", "\(size.width)"), ("Xmp.tiff.ImageLength", "\(size.height)"),
            ]
        }
        for (key, value) in values where present.contains(key) {
            if try document.string(key) != value {
                try document.set(key, value)
                changed = true
            }
        }
        if let artist = edits.artist {
            try document.set("Xmp.dc.creator", items: [artist])
            changed = true
        }
        if let copyright = edits.copyright {
            // Explicit language, so a notice that itself starts with `lang=` stays text.
            try document.set("Xmp.dc.rights", "lang=\"x-default\" " + copyright)
            changed = true
        }
        return changed
    }
}

extension XMPEdit {
    static let instanceKey = "Xmp.xmpMM.InstanceID"
    static let derivedFrom = "Xmp.xmpMM.DerivedFrom"

    /// The packet made the record of a new instance, `instanceID`, derived from the one it
    /// describes: the source's `xmpMM:InstanceID` and `xmpMM:DocumentID` go into
    /// `xmpMM:DerivedFrom` (replacing the source's own), the document ids stay. A packet without an
    /// instance id is left so; whether anything changed.
    static func derive(_ document: XMPDocument, present: Set<String>, instanceID: String) throws(Exiv2Error) -> Bool {
        guard present.contains(instanceKey), let source = try document.string(instanceKey), source != instanceID
        else { return false }
        let documentID = present.contains("Xmp.xmpMM.DocumentID") ? try document.string("Xmp.xmpMM.DocumentID") : nil
        for key in present where key.hasPrefix(derivedFrom + "/") { try document.remove(key) }
        if present.contains(where: { $0.hasPrefix(derivedFrom + "/") }) {
            try document.remove(derivedFrom, isContainer: true)
        }
        try document.set(instanceKey, instanceID)
        try document.set(derivedFrom + "/stRef:instanceID", source)
        if let documentID { try document.set(derivedFrom + "/stRef:documentID", documentID) }
        return true
    }
}

/// An exiv2 XMP key taken apart: `Xmp.iptcExt.LocationShown[1]/iptcExt:City` has the steps
/// `iptcExt:LocationShown` (key `Xmp.iptcExt.LocationShown`) and `iptcExt:City` (the whole key).
struct XMPKeyPath {
    struct Step {
        /// The prefix as exiv2 spells it: its own for the first step, the packet's below.
        var prefix: String
        var name: String
        /// The key of the node this step names (up to the end of its name, before any `[n]`).
        var key: String
    }

    let steps: [Step]

    init?(_ key: String) {
        guard key.hasPrefix("Xmp.") else { return nil }
        let rest = key.dropFirst(4)
        guard let dot = rest.firstIndex(of: ".") else { return nil }
        var steps = [Step]()
        let first = rest[rest.index(after: dot)...]
        let firstEnd = first.firstIndex { $0 == "[" || $0 == "/" } ?? first.endIndex
        steps.append(
            Step(prefix: String(rest[..<dot]), name: String(first[..<firstEnd]), key: String(key[..<firstEnd])))
        // Below the first step: `/prefix:Name` for struct fields, `/?prefix:name` for qualifiers
        // (never location, skipped), `[n]` for array items.
        var index = firstEnd
        while index < key.endIndex {
            guard key[index] == "/" else {
                index = key[index...].firstIndex(of: "/") ?? key.endIndex
                continue
            }
            let start = key.index(after: index)
            let end = key[start...].firstIndex { $0 == "[" || $0 == "/" } ?? key.endIndex
            let component = key[start..<end]
            if !component.hasPrefix("?"), let colon = component.firstIndex(of: ":") {
                steps.append(
                    Step(
                        prefix: String(component[..<colon]), name: String(component[component.index(after: colon)...]),
                        key: String(key[..<end])))
            }
            index = end
        }
        self.steps = steps
    }
}

/// Which XMP properties an output loses, by namespace URI and name.
enum XMPNamespace {
    static let exif = "http://ns.adobe.com/exif/1.0/"
    static let exifEX = "http://cipa.jp/exif/1.0/"
    static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    static let iptcCore = "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
    static let iptcExt = "http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
    static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let dynamicMedia = "http://ns.adobe.com/xmp/1.0/DynamicMedia/"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let dji = "http://www.dji.com/drone-dji/1.0/"

    /// `packet` with the namespace URIs the source spelled without a final `/` or `#` given back as
    /// they were: exiv2 registers some (`http://ns.microsoft.com/photo/1.0`) with a `/` added and
    /// writes them so, which moves their properties to another namespace (exiftool warns "Fixed
    /// incorrect URI for xmlns:MicrosoftPhoto").
    static func restoringURIs(_ packet: Data, from source: [String: Set<String>]) -> Data {
        var text = String(decoding: packet, as: UTF8.self)
        for (prefix, uris) in source {
            for uri in uris where !uri.hasSuffix("/") && !uri.hasSuffix("#") {
                for quote in ["\"", "'"] {
                    text = text.replacingOccurrences(
                        of: "xmlns:\(prefix)=\(quote)\(uri)/\(quote)", with: "xmlns:\(prefix)=\(quote)\(uri)\(quote)")
                }
            }
        }
        return Data(text.utf8)
    }

    /// Every prefix → namespace URI binding that `packet` declares, from a namespace-aware XML
    /// parser (libxml2, through Foundation), which also decodes `&#58;` and friends in a URI.
    static func bindings(_ packet: Data) -> [String: Set<String>] {
        final class Collector: NSObject, XMLParserDelegate {
            var bindings: [String: Set<String>] = [:]
            func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
                bindings[prefix, default: []].insert(namespaceURI)
            }
        }
        let parser = XMLParser(data: packet)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        let collector = Collector()
        parser.delegate = collector
        // A packet the parser rejects is rejected by exiv2 too; what was bound before is kept.
        _ = parser.parse()
        return collector.bindings
    }

    /// True when the property `name` of namespace `uri` goes, wherever it is: a thumbnail always,
    /// location with `stripGPS`, the credit properties that `edits` replaces.
    static func removes(uri: String, name: String, stripGPS: Bool, credit edits: MetadataEdits) -> Bool {
        switch uri {
        // xmp:Thumbnails (xmpGImg) would show the photo without its marks.
        case xmp: return name == "Thumbnails"
        case dc: return (edits.artist != nil && name == "creator") || (edits.copyright != nil && name == "rights")
        case _ where !stripGPS: return false
        case exif, exifEX: return name.hasPrefix("GPS")
        case photoshop: return ["City", "State", "Country"].contains(name)
        case iptcCore: return ["Location", "CountryCode"].contains(name)
        case iptcExt: return ["LocationShown", "LocationCreated"].contains(name)
        case dynamicMedia: return name == "shotLocation"
        case dji:
            // DJI writes GpsLatitude, GpsLongitude (and GpsLongtitude), AbsoluteAltitude.
            let lower = name.lowercased()
            return ["gps", "latitude", "longitude", "longtitude", "altitude"].contains { lower.contains($0) }
        default: return false
        }
    }
}
