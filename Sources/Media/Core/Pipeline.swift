// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation

/// A running GStreamer pipeline parsed from launch syntax. Owns the top-level element: it is set
/// to NULL and unreffed when released, so no streaming thread outlives it.
public final class Pipeline: @unchecked Sendable {
    let element: UnsafeMutablePointer<GstElement>
    /// The launch text it was built from, for messages.
    public let description: String

    /// Parses `description` with fatal errors: a half-built pipeline never comes back.
    public init(_ description: String) throws(MediaError) {
        try GStreamer.initialize()
        self.description = description
        let parsed = try Self.parse(description, asBin: false)
        // A single element comes back bare; wrap it so every Pipeline has a bus of its own.
        if g_type_check_instance_is_a(
            UnsafeMutableRawPointer(parsed).assumingMemoryBound(to: GTypeInstance.self),
            gst_pipeline_get_type()) != 0
        {
            element = parsed
        } else {
            let bin = gst_pipeline_new(nil)!
            gst_bin_add(gcast(bin), parsed)
            element = bin
        }
    }

    /// One pipeline of several parts, each parsed from its own launch text into a bin named as
    /// given (`capture`, `output`), not linked to each other yet: an error's element path says
    /// which part it came from (`/GstPipeline:pipeline0/GstBin:capture/GstVideoTestSrc:camera`).
    public init(parts: KeyValuePairs<String, String>) throws(MediaError) {
        try GStreamer.initialize()
        description = parts.map(\.value).joined(separator: "  ")
        element = gst_pipeline_new(nil)!
        for (name, text) in parts {
            let bin: UnsafeMutablePointer<GstElement>
            do { bin = try Self.parse(text, asBin: true) } catch {
                gst_object_unref(UnsafeMutableRawPointer(element))
                throw error
            }
            gst_object_set_name(gcast(bin), name)
            gst_bin_add(gcast(element), bin)
        }
    }

    /// Parses launch text into a pipeline, or a bin whose unlinked pads stay unlinked.
    private static func parse(_ description: String, asBin: Bool) throws(MediaError) -> UnsafeMutablePointer<GstElement>
    {
        let context = gst_parse_context_new()
        defer { gst_parse_context_free(context) }
        var error: UnsafeMutablePointer<GError>?
        let parsed =
            asBin
            ? gst_parse_bin_from_description_full(description, 0, context, GST_PARSE_FLAG_FATAL_ERRORS, &error)
            : gst_parse_launch_full(description, context, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        if let error {
            defer { g_error_free(error) }
            if let parsed { gst_object_unref(UnsafeMutableRawPointer(parsed)) }
            if error.pointee.domain == gst_parse_error_quark(),
                error.pointee.code == Int32(GST_PARSE_ERROR_NO_SUCH_ELEMENT.rawValue)
            {
                var names: [String] = []
                if let missing = gst_parse_context_get_missing_elements(context) {
                    var index = 0
                    while let name = missing[index] {
                        names.append(String(cString: name))
                        index += 1
                    }
                    g_strfreev(missing)
                }
                throw .missingElements(names.isEmpty ? [String(cString: error.pointee.message)] : names)
            }
            throw .parse(message: String(cString: error.pointee.message), pipeline: description)
        }
        guard let parsed else { throw .parse(message: "empty pipeline", pipeline: description) }
        return parsed
    }

    deinit {
        gst_element_set_state(element, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(element))
    }

    /// The element named `name` (transfer full: the caller's `Element` owns a ref).
    public func element(named name: String) throws(MediaError) -> Element {
        guard let found = gst_bin_get_by_name(gcast(element), name) else {
            throw .missingNamedElement(name: name, pipeline: description)
        }
        return Element(adopting: found)
    }

    /// Changes state and waits (up to `timeout`) for async changes to finish. On failure the
    /// reason is the error already on the bus, popped and returned as the thrown error.
    /// `wait: false` returns once the change has started: a pipeline fed by appsrc cannot
    /// preroll before its first buffer, so waiting there would hang.
    public func setState(_ state: State, wait: Bool = true, timeout: Duration = .seconds(10)) throws(MediaError) {
        let result = gst_element_set_state(element, state.gst)
        if result == GST_STATE_CHANGE_FAILURE { throw failure(doing: "set to \(state)") }
        if result == GST_STATE_CHANGE_ASYNC && wait {
            let wait = gst_element_get_state(element, nil, nil, GstClockTime(timeout.nanoseconds))
            if wait == GST_STATE_CHANGE_FAILURE { throw failure(doing: "set to \(state)") }
            if wait == GST_STATE_CHANGE_ASYNC { throw .timeout("pipeline did not reach \(state) within \(timeout)") }
        }
    }

    /// The stream's duration in nanoseconds, when the pipeline knows it (a file, once prerolled).
    public func duration() -> UInt64? {
        var duration: gint64 = -1
        guard gst_element_query_duration(element, GST_FORMAT_TIME, &duration) != 0, duration >= 0 else { return nil }
        return UInt64(duration)
    }

    /// Stops everything now (no EOS, no finalisation).
    public func stop() {
        gst_element_set_state(element, GST_STATE_NULL)
    }

    /// Sends EOS into the pipeline from the top (sources forward it downstream).
    public func sendEndOfStream() {
        gst_element_send_event(element, gst_event_new_eos())
    }

    /// The next error, or EOS, from the bus, waiting up to `timeout`. Returns nil on timeout.
    public func waitForEndOrError(timeout: Duration) -> BusResult? {
        popMessage(GstMessageType(GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue), timeout: timeout)
    }

    /// The next error from the bus, waiting up to `timeout`.
    public func waitForError(timeout: Duration) -> MediaError? {
        if case .error(let error) = popMessage(GST_MESSAGE_ERROR, timeout: timeout) { return error }
        return nil
    }

    /// An error waiting on the bus, if any, without blocking.
    public func pendingError() -> MediaError? {
        if case .error(let error) = popMessage(GST_MESSAGE_ERROR, timeout: nil) { return error }
        return nil
    }

    /// Pops the next EOS or error message of `types`; `timeout` nil means don't wait.
    private func popMessage(_ types: GstMessageType, timeout: Duration?) -> BusResult? {
        let bus = gst_element_get_bus(element)!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        let popped =
            timeout.map { gst_bus_timed_pop_filtered(bus, GstClockTime($0.nanoseconds), types) }
            ?? gst_bus_pop_filtered(bus, types)
        guard let message = popped else { return nil }
        defer { gst_message_unref(message) }
        return message.pointee.type == GST_MESSAGE_EOS ? .endOfStream : .error(mediaError(from: message))
    }

    /// After a failed state change GStreamer has already posted why; show that, not "failed".
    private func failure(doing what: String) -> MediaError {
        // The element that failed may post its reason just after the change gave up (a decoder
        // in a streaming thread): wait for it a little.
        if let error = pendingError() ?? waitForError(timeout: .milliseconds(500)) {
            if case .stream(let element, _, _, let message, let debug) = error {
                return .stateChange(element: element, message: message, debug: debug.map(MediaError.cause(inDebug:)))
            }
            return error
        }
        return .stateChange(element: objectPath(gcast(element)), message: "could not be \(what)", debug: nil)
    }

    public enum State: CustomStringConvertible, Sendable {
        case null, ready, paused, playing
        var gst: GstState {
            switch self {
            case .null: GST_STATE_NULL
            case .ready: GST_STATE_READY
            case .paused: GST_STATE_PAUSED
            case .playing: GST_STATE_PLAYING
            }
        }
        public var description: String {
            switch self {
            case .null: "NULL"
            case .ready: "READY"
            case .paused: "PAUSED"
            case .playing: "PLAYING"
            }
        }
    }

    public enum BusResult: Equatable, Sendable {
        case endOfStream
        case error(MediaError)
    }
}

/// G_TYPE_STRING and friends are macros over fundamental type numbers.
func gType(_ fundamental: Int32) -> GType { GType(fundamental << G_TYPE_FUNDAMENTAL_SHIFT) }
let G_TYPE_STRING: Int32 = 16

extension Duration {
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(seconds, 0)) * 1_000_000_000 + UInt64(max(attoseconds, 0) / 1_000_000_000)
    }
}

/// A named element of a pipeline, owning one ref. Properties are set by their string form
/// (`gst_util_set_object_arg`: g_object_set is variadic and does not import).
public final class Element: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstElement>

    init(adopting pointer: UnsafeMutablePointer<GstElement>) { self.pointer = pointer }
    deinit { gst_object_unref(UnsafeMutableRawPointer(pointer)) }

    public var name: String { objectName(gcast(pointer)) }

    /// Sets a property from its string form, as gst-launch would.
    public func set(_ property: String, _ value: String) throws(MediaError) {
        let object: UnsafeMutablePointer<GObject> = gcast(pointer)
        guard
            g_object_class_find_property(
                UnsafeMutableRawPointer(object.pointee.g_type_instance.g_class)
                    .assumingMemoryBound(to: GObjectClass.self), property) != nil
        else {
            throw .invalidTemplate("element '\(name)' has no property '\(property)'")
        }
        gst_util_set_object_arg(object, property, value)
    }

    /// A property's value in its string form (as gst-inspect shows it).
    public func string(_ property: String) -> String? {
        let object: UnsafeMutablePointer<GObject> = gcast(pointer)
        guard
            let spec = g_object_class_find_property(
                UnsafeMutableRawPointer(object.pointee.g_type_instance.g_class)
                    .assumingMemoryBound(to: GObjectClass.self), property)
        else { return nil }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(object, property, &value)
        if spec.pointee.value_type == gType(G_TYPE_STRING) {
            return g_value_get_string(&value).map { String(cString: $0) }
        }
        // An unset structure or object: its string form would be a GStreamer CRITICAL.
        if g_value_fits_pointer(&value) != 0 && g_value_peek_pointer(&value) == nil { return nil }
        return takeGString(g_strdup_value_contents(&value))
    }

    /// The fields of the caps currently on pad `pad` (e.g. "src"), as strings; nil before
    /// negotiation. For reading what an element settled on (an RTP payloader's sprop-parameter-sets).
    public func currentCaps(pad: String) -> (name: String, fields: [String: String])? {
        guard let found = gst_element_get_static_pad(pointer, pad) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(found)) }
        guard let caps = gst_pad_get_current_caps(found) else { return nil }
        defer { gst_caps_unref(caps) }
        guard gst_caps_get_size(caps) > 0, let structure = gst_caps_get_structure(caps, 0) else { return nil }
        return Self.fields(of: structure)
    }

    /// The fields of a structure-valued property (srtsink's `stats`), as strings; nil when it
    /// is unset or not a structure.
    public func structure(_ property: String) -> (name: String, fields: [String: String])? {
        let object: UnsafeMutablePointer<GObject> = gcast(pointer)
        guard
            let spec = g_object_class_find_property(
                UnsafeMutableRawPointer(object.pointee.g_type_instance.g_class)
                    .assumingMemoryBound(to: GObjectClass.self), property),
            spec.pointee.value_type == gst_structure_get_type()
        else { return nil }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(object, property, &value)
        guard let structure = gst_value_get_structure(&value) else { return nil }
        return Self.fields(of: structure)
    }

    private static func fields(of structure: UnsafePointer<GstStructure>) -> (name: String, fields: [String: String]) {
        var fields: [String: String] = [:]
        for index in 0..<gst_structure_n_fields(structure) {
            guard let name = gst_structure_nth_field_name(structure, guint(index)) else { continue }
            let key = String(cString: name)
            if let string = gst_structure_get_string(structure, name) {
                fields[key] = String(cString: string)
            } else if let value = gst_structure_get_value(structure, name),
                let text = takeGString(gst_value_serialize(value))
            {
                fields[key] = text
            }
        }
        return (String(cString: gst_structure_get_name(structure)), fields)
    }

    public func set(_ property: String, _ value: Int) throws(MediaError) { try set(property, String(value)) }
    public func set(_ property: String, _ value: Bool) throws(MediaError) {
        try set(property, value ? "true" : "false")
    }
}

extension Element {
    /// Ends a source's stream (a live audio capture that would otherwise never stop).
    public func sendEndOfStream() {
        gst_element_send_event(pointer, gst_event_new_eos())
    }

    /// How many of the element's sink pads have had their end of stream (for tests that must know
    /// an end reached an element before they go on).
    var sinkPadsAtEnd: Int {
        var count = 0
        forEachPad(of: pointer, sink: true) { pad in
            if (pad.pointee.object.flags & GST_PAD_FLAG_EOS.rawValue) != 0 { count += 1 }
        }
        return count
    }
}
