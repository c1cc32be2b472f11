// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGexiv2
import Foundation
import Synchronization

/// Why exiv2 (through gexiv2) could not read or write an XMP packet. exiv2 is C++ under a C API:
/// its exceptions arrive as GErrors, its parse failures only as log lines; both end up here.
public enum Exiv2Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// `gexiv2_initialize` failed: the XMP toolkit did not start.
    case initialization
    /// `gexiv2_metadata_open_buf` refused the packet (exiv2's error code and text).
    case open(code: Int, message: String)
    /// exiv2 read the packet but could not parse it as XMP; what exiv2 said.
    case unparsable(String)
    /// Reading, setting or clearing `key` failed.
    case tag(key: String, message: String)
    /// Serialising the edited XMP failed.
    case serialize(String)
    /// Removing `count` of the packet's `properties` would take exiv2 too long (see
    /// `XMPEdit.removalBudget`).
    case tooManyRemovals(Int, of: Int)

    public var description: String {
        switch self {
        case .initialization: "exiv2 could not initialise its XMP toolkit"
        case .open(let code, let message): "exiv2 cannot read it (error \(code): \(message))"
        case .unparsable(let why): "it is not valid XMP (\(why))"
        case .tag(let key, let message): "exiv2 cannot edit \(key) (\(message))"
        case .serialize(let why): "exiv2 cannot write it back (\(why))"
        case .tooManyRemovals(let count, let properties):
            "\(count) of its \(properties) properties are to be removed, too many to do quickly"
        }
    }
}

/// The one door to exiv2. exiv2 keeps process-wide state that is not safe to share between
/// threads (the XMP toolkit, its namespace registry, which every parse may extend, and the log
/// handler), and batch workers run in parallel: every use runs inside `serialized`, one at a time.
/// An edit of a camera's packet takes a millisecond or two, next to a photo's decode and encode.
enum Exiv2 {
    private static let started = Mutex<Bool>(false)

    /// Runs `body` while no other thread uses exiv2; initialises exiv2 on first use. Messages exiv2
    /// logs meanwhile are collected (see `logged`), never printed.
    static func serialized<T>(_ body: () throws(Exiv2Error) -> T) throws(Exiv2Error) -> T {
        try started.withLock { (started: inout Bool) throws(Exiv2Error) -> T in
            if !started {
                guard gexiv2_initialize() != 0 else { throw Exiv2Error.initialization }
                // exiv2 prints warnings to stderr by default; route them into `logged` instead.
                gexiv2_log_set_handler { _, message in
                    Exiv2Log.shared.record(message.map { String(cString: $0) } ?? "")
                }
                // Info level too: the XML validator says where a packet breaks only at that level.
                gexiv2_log_set_level(GEXIV2_LOG_LEVEL_INFO)
                started = true
            }
            Exiv2Log.shared.reset()
            return try body()
        }
    }

    /// What exiv2 logged during the current `serialized` call, in order.
    static var logged: [String] { Exiv2Log.shared.lines }
}

/// exiv2's log lines of the current call. Only the thread inside `Exiv2.serialized` touches it:
/// exiv2 calls the log handler synchronously from the call that logs.
private final class Exiv2Log: @unchecked Sendable {
    static let shared = Exiv2Log()
    private(set) var lines: [String] = []

    func reset() { lines.removeAll(keepingCapacity: true) }

    func record(_ text: String) {
        // A hostile packet must not grow this without bound.
        guard lines.count < 16 else { return }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        if !line.isEmpty { lines.append(line) }
    }
}

/// One XMP packet parsed by exiv2, edited through its keys (`Xmp.dc.creator`,
/// `Xmp.iptcExt.LocationShown[1]/iptcExt:City`, ...) and serialised again. Only exiv2's XMP side
/// is used: the packet travels alone, in a minimal PNG carrier, so exiv2 never sees (or rewrites)
/// a photo's EXIF. Use only inside `Exiv2.serialized`.
final class XMPDocument {
    private let metadata: UnsafeMutablePointer<GExiv2Metadata>

    /// Parses `packet`; nil gives an empty document. Throws when exiv2 cannot parse it.
    init(packet: Data?) throws(Exiv2Error) {
        guard let metadata = gexiv2_metadata_new() else { throw .initialization }
        self.metadata = metadata
        // A PNG rather than a JPEG carrier: an iTXt chunk holds a packet of any size, where a
        // JPEG segment stops at 64 KB; and exiv2 takes any bytes there, where its XMP-sidecar
        // sniffing wants the packet to start in one of a few exact ways.
        var carrier = PNGChunk.signature
        carrier += PNGChunk(type: "IHDR", data: Data([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])).encoded
        if let packet { carrier += PNGChunk.xmp(packet).encoded }
        carrier += PNGChunk(type: "IEND", data: Data()).encoded
        var error: UnsafeMutablePointer<GError>?
        let opened = carrier.withUnsafeBufferPointer {
            gexiv2_metadata_open_buf(metadata, $0.baseAddress, glong($0.count), &error)
        }
        guard opened != 0 else { throw .open(code: Int(error?.pointee.code ?? 0), message: Self.take(error)) }
        // exiv2 logs a parse failure and carries on with no XMP; that is an error here.
        let log = Exiv2.logged
        if packet != nil, log.contains(where: { $0.contains("Failed to decode XMP") }) {
            // The validator's line says where the XML breaks; the toolkit's only that it does.
            throw .unparsable(log.first { $0.hasPrefix("Invalid XML") } ?? log.first ?? "unknown reason")
        }
    }

    deinit { g_object_unref(metadata) }

    /// Every key that holds a value, sorted. Structs and arrays of structs have no key of their
    /// own here; their fields do (`Xmp.xmpMM.History[1]/stEvt:action`).
    var keys: [String] {
        guard let list = gexiv2_metadata_get_xmp_tags(metadata) else { return [] }
        defer { g_strfreev(list) }
        var out: [String] = []
        var i = 0
        while let key = list[i] {
            out.append(String(cString: key))
            i += 1
        }
        return out
    }

    /// The text of `key`, nil when absent.
    func string(_ key: String) throws(Exiv2Error) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let value = gexiv2_metadata_try_get_tag_string(metadata, key, &error)
        if let error { throw .tag(key: key, message: Self.take(error)) }
        defer { g_free(value) }
        return value.map { String(cString: $0) }
    }

    /// Sets `key` to `value` (for a language alternative, `lang="x-default" TEXT`).
    func set(_ key: String, _ value: String) throws(Exiv2Error) {
        var error: UnsafeMutablePointer<GError>?
        if gexiv2_metadata_try_set_tag_string(metadata, key, value, &error) == 0 {
            throw .tag(key: key, message: Self.take(error))
        }
    }

    /// Sets the array `key` (its type from exiv2's schema, e.g. dc:creator a Seq) to `values`.
    func set(_ key: String, items values: [String]) throws(Exiv2Error) {
        var error: UnsafeMutablePointer<GError>?
        let copies = values.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers = copies.map { UnsafePointer($0) } + [nil]
        if gexiv2_metadata_try_set_tag_multiple(metadata, key, &pointers, &error) == 0 {
            throw .tag(key: key, message: Self.take(error))
        }
    }

    /// Removes `key`. A struct or array node, which has no value and so no key in `keys`, is given
    /// one first: gexiv2 clears only keys that hold a value.
    func remove(_ key: String, isContainer: Bool = false) throws(Exiv2Error) {
        if isContainer { try set(key, "-") }
        var error: UnsafeMutablePointer<GError>?
        _ = gexiv2_metadata_try_clear_tag(metadata, key, &error)
        if let error { throw .tag(key: key, message: Self.take(error)) }
    }

    /// The namespace URI exiv2 has bound to `prefix` (its own prefix: `iptcExt`, `exif`, ...),
    /// nil when it knows none.
    static func namespace(ofPrefix prefix: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let uri = gexiv2_metadata_try_get_xmp_namespace_for_tag(prefix, &error)
        if let error {
            g_error_free(error)
            return nil
        }
        defer { g_free(uri) }
        return uri.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The document serialised as an XMP packet (with its `<?xpacket?>` wrapper), or nil when
    /// no property is left.
    func packet() throws(Exiv2Error) -> Data? {
        var error: UnsafeMutablePointer<GError>?
        // Standard (not compact) RDF, as cameras and Adobe write it; padding 0 lets the toolkit
        // add its usual 2 KB, which editors use to update the packet in place.
        guard let text = gexiv2_metadata_try_generate_xmp_packet(metadata, GExiv2XmpFormatFlags(rawValue: 0), 0, &error)
        else {
            // exiv2 reports an encoding failure only in its log.
            throw .serialize(error.map { Self.take($0) } ?? Exiv2.logged.first ?? "unknown reason")
        }
        defer { g_free(text) }
        let packet = Data(bytes: text, count: strlen(text))
        return packet.isEmpty ? nil : packet
    }

    /// The message of `error`, which is freed.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return Exiv2.logged.first ?? "unknown reason" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown reason"
    }
}

/// EXIF and XMP written into a TIFF file that libtiff made, by exiv2's TIFF writer: libtiff has
/// no way to take an EXIF block as it is (each tag would have to be set with its C type), while
/// exiv2 lays out IFD0's tags, the EXIF and GPS directories and the XMP tag around the picture,
/// whose own tags (size, strips, compression, ICC profile) it keeps.
package enum TIFFMetadata {
    /// `tiff` with `exifTIFF` (an EXIF block as TIFF, already edited for the output: Orientation
    /// 1, no thumbnail) and `xmp`. exiv2 serialises the XMP packet again from what it parsed.
    package static func insert(exifTIFF: Data, xmp: Data?, into tiff: Data) throws(Exiv2Error) -> Data {
        try Exiv2.serialized { () throws(Exiv2Error) -> Data in
            guard let metadata = gexiv2_metadata_new() else { throw .initialization }
            defer { g_object_unref(metadata) }
            // The pieces travel in a minimal PNG (eXIf and iTXt chunks), as XMPDocument's packet
            // does: exiv2 reads both from there, and saving copies them into the TIFF.
            var carrier = PNGChunk.signature
            carrier += PNGChunk(type: "IHDR", data: Data([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])).encoded
            carrier += PNGChunk(type: "eXIf", data: exifTIFF).encoded
            if let xmp { carrier += PNGChunk.xmp(xmp).encoded }
            carrier += PNGChunk(type: "IEND", data: Data()).encoded
            var error: UnsafeMutablePointer<GError>?
            let opened = carrier.withUnsafeBufferPointer {
                gexiv2_metadata_open_buf(metadata, $0.baseAddress, glong($0.count), &error)
            }
            guard opened != 0 else {
                throw .open(code: Int(error?.pointee.code ?? 0), message: XMPDocument.take(error))
            }
            let stream = TIFFMemoryStream(tiff)
            var callbacks = stream.callbacks()
            let saved = withExtendedLifetime(stream) { gexiv2_metadata_save_stream(metadata, &callbacks, &error) }
            guard saved != 0, !stream.output.isEmpty else { throw .serialize(XMPDocument.take(error)) }
            return stream.output
        }
    }
}

/// The TIFF exiv2 reads from (`input`) and the one it writes (`output`). exiv2 reads the whole
/// file before it writes anything, then seeks to the start and writes the new file from there.
private final class TIFFMemoryStream {
    let input: Data
    var output = Data()
    var position = 0
    private var writing = false

    init(_ input: Data) { self.input = input }

    private var length: Int { writing ? output.count : input.count }

    func callbacks() -> ManagedStreamCallbacks {
        func this(_ handle: UnsafeMutableRawPointer?) -> TIFFMemoryStream {
            Unmanaged.fromOpaque(handle!).takeUnretainedValue()
        }
        return ManagedStreamCallbacks(
            handle: Unmanaged.passUnretained(self).toOpaque(),
            CanSeek: { _ in 1 }, CanRead: { _ in 1 }, CanWrite: { _ in 1 },
            Length: { gint64(this($0).length) },
            Position: { gint64(this($0).position) },
            Read: { handle, buffer, offset, count in
                let stream = this(handle)
                guard let buffer, !stream.writing, stream.position < stream.input.count else { return 0 }
                let n = min(Int(count), stream.input.count - stream.position)
                stream.input.withUnsafeBytes {
                    (buffer + Int(offset)).copyMemory(from: $0.baseAddress! + stream.position, byteCount: n)
                }
                stream.position += n
                return Int32(n)
            },
            Write: { handle, buffer, offset, count in
                let stream = this(handle)
                guard let buffer, count > 0 else { return }
                stream.writing = true
                let end = stream.position + Int(count)
                if end > stream.output.count { stream.output.append(Data(count: end - stream.output.count)) }
                let start = stream.position
                stream.output.withUnsafeMutableBytes {
                    ($0.baseAddress! + start).copyMemory(from: buffer + Int(offset), byteCount: Int(count))
                }
                stream.position = end
            },
            Seek: { handle, offset, origin in
                let stream = this(handle)
                let base =
                    switch origin {
                    case Current: stream.position
                    case End: stream.length
                    default: 0
                    }
                stream.position = max(0, base + Int(offset))
            },
            Flush: { _ in })
    }
}
