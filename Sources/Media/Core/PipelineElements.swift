// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation

extension Pipeline {
    /// Every element in the pipeline and its bins, as `factory` (or `factory:name` when named by
    /// the template), in the order GStreamer iterates them: what `-v` shows as the elements chosen,
    /// auto-plugged ones (decodebin's decoder) included once the pipeline has started.
    public func elementSummary() -> [String] {
        allElements().map { Self.summary(of: $0.pointer) }
    }

    /// Every element in the pipeline and its bins, in the order `elementSummary` lists them.
    func allElements() -> [Element] {
        guard let iterator = gst_bin_iterate_recurse(gcast(element)) else { return [] }
        defer { gst_iterator_free(iterator) }
        var value = GValue()
        defer { g_value_unset(&value) }
        var found: [Element] = []
        while true {
            switch gst_iterator_next(iterator, &value) {
            case GST_ITERATOR_OK:
                if let object = g_value_get_object(&value) {
                    // The GValue's ref goes with the reset: this one is the Element's.
                    gst_object_ref(object)
                    found.append(Element(adopting: object.assumingMemoryBound(to: GstElement.self)))
                }
                g_value_reset(&value)
            case GST_ITERATOR_RESYNC:
                // The bin changed while we iterated (decodebin adding its decoder): start over.
                gst_iterator_resync(iterator)
                found.removeAll()
            default:
                return found.reversed()
            }
        }
    }

    /// The name of the factory that made `element` (`filesink`), nil for one made otherwise.
    static func factoryName(of element: UnsafeMutablePointer<GstElement>) -> String? {
        guard let factory = gst_element_get_factory(element) else { return nil }
        return objectName(UnsafeMutableRawPointer(factory).assumingMemoryBound(to: GstObject.self))
    }

    private static func summary(of element: UnsafeMutablePointer<GstElement>) -> String {
        func name(_ object: UnsafeMutableRawPointer) -> String {
            // gst_object_get_name: a copy the caller frees.
            guard let text = gst_object_get_name(object.assumingMemoryBound(to: GstObject.self)) else { return "" }
            defer { g_free(text) }
            return String(cString: text)
        }
        let own = name(UnsafeMutableRawPointer(element))
        guard let factory = gst_element_get_factory(element) else { return own }
        let factoryName = name(UnsafeMutableRawPointer(factory))
        // Unnamed elements are called factory + number (jpegenc0): the factory says it all.
        if own.hasPrefix(factoryName), own.dropFirst(factoryName.count).allSatisfy(\.isNumber) { return factoryName }
        return "\(factoryName):\(own)"
    }
}
