// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// GStreamer core, app and video all include gst.h; a C declaration they share is visible
// through whichever module the compiler credits with it, so every file imports all three.
internal import CGStreamer
internal import CGstApp
internal import CGstVideo

// GObject's cast macros (GST_ELEMENT(), GST_APP_SINK() ...) don't import into Swift; this is the
// one place that reinterprets a pointer to a GObject instance as a pointer to another of its
// types. Callers must know the dynamic type (they got it from a named element of a template).
@inline(__always)
func gcast<From, To>(_ pointer: UnsafeMutablePointer<From>, to: To.Type = To.self) -> UnsafeMutablePointer<To> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: To.self)
}

/// Takes ownership of a C string allocated by GLib and returns it as a Swift string.
func takeGString(_ string: UnsafeMutablePointer<gchar>?) -> String? {
    guard let string else { return nil }
    defer { g_free(string) }
    return String(cString: string)
}

/// The path of a GstObject (e.g. `/GstPipeline:pipeline0/GstX264Enc:x264enc0`), for messages.
func objectPath(_ object: UnsafeMutablePointer<GstObject>?) -> String {
    guard let object else { return "(unknown)" }
    return takeGString(gst_object_get_path_string(object)) ?? "(unknown)"
}

/// The short name of a GstObject (`encoder`, `frames`).
func objectName(_ object: UnsafeMutablePointer<GstObject>?) -> String {
    guard let object else { return "(unknown)" }
    return takeGString(gst_object_get_name(object)) ?? "(unknown)"
}
