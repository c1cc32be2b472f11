// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation

/// A camera found by GStreamer's device monitor.
public struct CameraDevice: Sendable, Equatable {
    public var name: String
    /// The V4L2 device path (`/dev/video0`), when the provider says.
    public var path: String?
    /// Each format the camera offers, e.g. `YUY2 640x480 @30/1` or `image/jpeg 1280x720`.
    public var modes: [Mode]

    public struct Mode: Sendable, Equatable, CustomStringConvertible {
        public var format: String
        public var width: Int?
        public var height: Int?
        public var framerates: [String]
        public var description: String {
            var text = format
            if let width, let height { text += " \(width)x\(height)" }
            if !framerates.isEmpty { text += " @ " + framerates.joined(separator: ", ") + " fps" }
            return text
        }
    }
}

public enum Devices {
    /// Cameras present now. An empty list is a normal answer, not an error.
    public static func cameras() throws(MediaError) -> [CameraDevice] {
        try GStreamer.initialize()
        let monitor = gst_device_monitor_new()!
        defer { gst_object_unref(UnsafeMutableRawPointer(monitor)) }
        _ = gst_device_monitor_add_filter(monitor, "Video/Source", nil)
        // start() probes the providers; get_devices() then lists what they found.
        guard gst_device_monitor_start(monitor) != 0 else { return [] }
        defer { gst_device_monitor_stop(monitor) }
        var cameras: [CameraDevice] = []
        var node = gst_device_monitor_get_devices(monitor)
        let list = node
        defer { g_list_free_full(list) { gst_object_unref($0) } }
        while let current = node {
            let device: UnsafeMutablePointer<GstDevice> = current.pointee.data.assumingMemoryBound(to: GstDevice.self)
            cameras.append(camera(from: device))
            node = current.pointee.next
        }
        return cameras
    }

    /// How many microphones (audio sources: PulseAudio or ALSA) GStreamer finds now.
    public static func microphones() throws(MediaError) -> Int {
        try GStreamer.initialize()
        let monitor = gst_device_monitor_new()!
        defer { gst_object_unref(UnsafeMutableRawPointer(monitor)) }
        _ = gst_device_monitor_add_filter(monitor, "Audio/Source", nil)
        guard gst_device_monitor_start(monitor) != 0 else { return 0 }
        defer { gst_device_monitor_stop(monitor) }
        let list = gst_device_monitor_get_devices(monitor)
        defer { g_list_free_full(list) { gst_object_unref($0) } }
        return Int(g_list_length(list))
    }

    private static func camera(from device: UnsafeMutablePointer<GstDevice>) -> CameraDevice {
        let name = takeGString(gst_device_get_display_name(device)) ?? "camera"
        var path: String?
        if let properties = gst_device_get_properties(device) {
            defer { gst_structure_free(properties) }
            for key in ["device.path", "api.v4l2.path", "object.path"] {
                if let value = gst_structure_get_string(properties, key) {
                    path = String(cString: value)
                    break
                }
            }
        }
        var modes: [CameraDevice.Mode] = []
        if let caps = gst_device_get_caps(device) {
            defer { gst_caps_unref(caps) }
            for index in 0..<gst_caps_get_size(caps) {
                guard let structure = gst_caps_get_structure(caps, index) else { continue }
                modes.append(mode(from: structure))
            }
        }
        return CameraDevice(name: name, path: path, modes: modes)
    }

    private static func mode(from structure: UnsafeMutablePointer<GstStructure>) -> CameraDevice.Mode {
        let media = String(cString: gst_structure_get_name(structure))
        var format = media
        if let raw = gst_structure_get_string(structure, "format") { format = String(cString: raw) }
        var width: gint = 0, height: gint = 0
        let hasSize =
            gst_structure_get_int(structure, "width", &width) != 0
            && gst_structure_get_int(structure, "height", &height) != 0
        var rates: [String] = []
        if let value = gst_structure_get_value(structure, "framerate") {
            // A single fraction, a list of them, or a range: its string form reads well in all cases.
            if let text = takeGString(gst_value_serialize(value)) {
                rates = text.trimmingCharacters(in: CharacterSet(charactersIn: "{}[] "))
                    .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .map { $0.replacingOccurrences(of: "(fraction)", with: "") }
                    .map { $0.hasSuffix("/1") ? String($0.dropLast(2)) : $0 }
            }
        }
        return .init(
            format: format, width: hasSize ? Int(width) : nil, height: hasSize ? Int(height) : nil, framerates: rates)
    }
}
