// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// What a marked MP4 or MOV clip keeps of its source's container metadata that GStreamer 1.22's
/// qtmux/mp4mux cannot write, put into the finished output file.
///
/// GStreamer carries the tags qtdemux parses (title, artist, comment, ...) to the muxer itself. It
/// cannot carry the rest:
/// - the creation time: qtmux stamps `mvhd`, `tkhd` and `mdhd` with the time it runs
///   (`atoms_get_current_qt_time`) and has neither a property nor a tag for it;
/// - a phone's location: qtdemux does not parse `©xyz` (QuickTime, Android) and reads `loci` only
///   in a `udta` without a `meta`, and qtmux writes `loci` only into 3GP files;
/// - Apple's `mdta` keys (`com.apple.quicktime.location.ISO6709`, `...make`, `...model`,
///   `...creationdate`): qtdemux passes the `ilst` items on without the `keys` box that names them,
///   and mp4mux writes such items into MP4 as unnamed iTunes items (Media's `ClipPipeline.keepTags`
///   leaves them out; qtmux writes none);
/// - `©mak`/`©mod` in a MOV's `udta`: qtmux writes make and model only into XMP.
/// So the output's creation times are set to the source's, and these boxes are copied from the
/// source's `moov` into the output's (its `moov` rewritten at the file's end; the media data does
/// not move, so no chunk offset changes).
package enum ContainerMetadata {
    /// `udta` boxes copied as they are: a location and the camera.
    static let userDataBoxes: Set<String> = ["\u{A9}xyz", "loci", "\u{A9}mak", "\u{A9}mod"]
    /// Of those, the location.
    static let locationBoxes: Set<String> = ["\u{A9}xyz", "loci"]

    /// Sets `output`'s creation times to `created` and copies `source`'s location, make/model
    /// and `mdta` keys into it (without the location when `keepLocation` is false; the `encoder`
    /// key never: the output's encoder is not the source's). Both are MP4 or MOV files.
    package static func carry(
        from source: URL, into output: URL, created: Date?, keepLocation: Bool
    ) throws(ContainerError) {
        do {
            let sourceMoov = try readMoov(source).data
            let extras = copiedBoxes(fromMoov: sourceMoov, keepLocation: keepLocation)
            let (outputMoov, offset, after) = try readMoov(output)
            var moov = outputMoov
            if let created { setCreationTimes(in: &moov, to: created) }
            moov = adding(extras, to: moov)
            guard moov != outputMoov else { return }
            let handle = try FileHandle(forUpdating: output)
            defer { try? handle.close() }
            if let after {
                // Nothing after the moov that chunk offsets point into: moov and the rest follow
                // one another as before (mp4mux puts its XMP uuid after the moov).
                try handle.seek(toOffset: offset)
                try handle.write(contentsOf: moov + after)
                try handle.truncate(atOffset: offset + UInt64(moov.count + after.count))
            } else if moov.count == outputMoov.count {
                try handle.seek(toOffset: offset)
                try handle.write(contentsOf: moov)
            } else {
                // Media data after the moov stays where it is: the old moov becomes free space and
                // the new one goes at the end.
                try handle.seek(toOffset: offset + 4)
                try handle.write(contentsOf: Data("free".utf8))
                try handle.seekToEnd()
                try handle.write(contentsOf: moov)
            }
        } catch let error as ContainerError {
            throw error
        } catch {
            throw .metadata(file: output.path, reason: "\(error)")
        }
    }

    // MARK: - Boxes

    typealias Box = MP4Box

    /// The boxes one after another in `data[range]`, up to the first that does not fit.
    static func boxes(in data: Data, _ range: Range<Int>) -> [Box] {
        MP4Box.leadingChildren(of: data, in: range)
    }

    /// Bytes as ISO 8859-1 text: a box type (`©xyz`).
    static func latin1(_ bytes: Data) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    static func uint32(_ data: Data, _ at: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: data.bigEndian(at: at, 4) ?? 0)
    }

    static func header(_ type: String, payload: Int) -> Data {
        Data(bigEndianBytes(UInt64(8 + payload), 4) + type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
    }

    /// Top-level boxes that may follow a moov and hold no media data, and the most of them moved
    /// when the moov grows.
    static let movableBoxes: Set<String> = ["uuid", "free", "skip", "wide", "udta", "meta"]
    static let movableLimit: UInt64 = 16 << 20

    /// The file's top-level `moov` (its bytes, re-based at 0), where it starts, and the bytes after
    /// it when they are only `movableBoxes` (empty when it is last; nil when media data follows).
    /// Only box headers are read before it: the media data can be gigabytes.
    static func readMoov(_ url: URL) throws -> (data: Data, offset: UInt64, after: Data?) {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let end = try handle.seekToEnd()
        let top = TopLevelBox.all(in: handle)
        guard let index = top.boxes.firstIndex(where: { $0.type == "moov" }) else {
            throw ContainerError.metadata(file: url.path, reason: "no moov box (not a whole MP4 or MOV file)")
        }
        let moov = top.boxes[index]
        guard moov.size < UInt64(UInt32.max) else {
            throw ContainerError.metadata(file: url.path, reason: "its moov box is over 4 GiB")
        }
        try handle.seek(toOffset: moov.offset)
        let data = Data(try handle.read(upToCount: Int(moov.size)) ?? Data())
        let rest = end - moov.offset - moov.size
        guard top.whole, top.boxes[(index + 1)...].allSatisfy({ movableBoxes.contains($0.type) }), rest <= movableLimit
        else {
            return (data, moov.offset, nil)
        }
        return (data, moov.offset, Data(try handle.read(upToCount: Int(rest)) ?? Data()))
    }

    // MARK: - Creation times

    /// Seconds from 1904-01-01 (QuickTime's epoch) to 1970-01-01.
    static let quickTimeEpoch: Double = 2_082_844_800

    /// Sets the creation time of `mvhd`, and of each track's `tkhd` and `mdhd` (their modification
    /// times stay the muxer's: when the clip was marked).
    static func setCreationTimes(in moov: inout Data, to date: Date) {
        let seconds = UInt64(max(0, (date.timeIntervalSince1970 + quickTimeEpoch).rounded(.down)))
        func set(_ box: Box) {
            guard !box.body.isEmpty else { return }
            let version = moov[box.body.lowerBound], at = box.body.lowerBound + 4
            let width = version == 1 ? 8 : 4
            guard box.body.count >= 4 + width, width == 8 || seconds <= UInt64(UInt32.max) else { return }
            moov.replaceSubrange(at..<(at + width), with: bigEndianBytes(seconds, width))
        }
        let top = boxes(in: moov, 0..<moov.count)
        guard let root = top.first else { return }
        for box in boxes(in: moov, root.body) {
            if box.type == "mvhd" { set(box) }
            guard box.type == "trak" else { continue }
            for child in boxes(in: moov, box.body) {
                if child.type == "tkhd" { set(child) }
                if child.type == "mdia" { boxes(in: moov, child.body).filter { $0.type == "mdhd" }.forEach(set) }
            }
        }
    }

    // MARK: - Copied boxes

    package struct Extras {
        /// Whole boxes for the output's `moov/udta`.
        package var userData: [(type: String, data: Data)] = []
        /// Whole boxes for the output's `moov` (the `mdta` meta).
        package var moov: [Data] = []
    }

    /// The boxes of a source's `moov` to copy: `userDataBoxes` from its `udta`, and its `mdta`
    /// meta (in `moov`, as an iPhone writes it, or in `udta`, as ffmpeg does) without its
    /// `encoder` key (and its location keys unless `keepLocation`).
    package static func copiedBoxes(fromMoov moov: Data, keepLocation: Bool) -> Extras {
        var extras = Extras()
        guard let root = boxes(in: moov, 0..<moov.count).first else { return extras }
        for box in boxes(in: moov, root.body) {
            if box.type == "meta", let meta = keyedMeta(moov, box, keepLocation: keepLocation) {
                extras.moov.append(meta)
            }
            guard box.type == "udta" else { continue }
            for child in boxes(in: moov, box.body) {
                if child.type == "meta", let meta = keyedMeta(moov, child, keepLocation: keepLocation) {
                    extras.moov.append(meta)
                }
                guard userDataBoxes.contains(child.type), keepLocation || !locationBoxes.contains(child.type) else {
                    continue
                }
                extras.userData.append((child.type, Data(moov[child.range])))
            }
        }
        return extras
    }

    /// A `meta` box with handler `mdta`, rebuilt with the keys kept (its `ilst` items renumbered
    /// to match); nil for any other meta, or when no key is left.
    static func keyedMeta(_ data: Data, _ meta: Box, keepLocation: Bool) -> Data? {
        // QuickTime's meta is a plain box; ISO's a full box (4 bytes of version and flags first).
        // A body too short for either holds no keys (and `start + 4` would pass its end).
        guard meta.body.count >= 4 else { return nil }
        let start = meta.body.lowerBound
        let childStart =
            meta.body.count >= 8 && latin1(data[(start + 4)..<(start + 8)]) == "hdlr"
            ? start : start + 4
        let children = boxes(in: data, childStart..<meta.range.upperBound)
        guard let handler = children.first(where: { $0.type == "hdlr" }), handler.body.count >= 12,
            latin1(data[(handler.body.lowerBound + 8)..<(handler.body.lowerBound + 12)]) == "mdta",
            let keys = children.first(where: { $0.type == "keys" }), keys.body.count >= 8,
            let items = children.first(where: { $0.type == "ilst" })
        else { return nil }
        // keys: version and flags, a count, then (size, namespace, name) entries, numbered from 1.
        var entries: [Data] = []
        var at = keys.body.lowerBound + 8
        while at + 8 <= keys.range.upperBound {
            let size = Int(uint32(data, at))
            guard size >= 8, at + size <= keys.range.upperBound else { break }
            entries.append(Data(data[at..<(at + size)]))
            at += size
        }
        var renumbered: [Int: UInt32] = [:]
        var kept = Data()
        for (index, entry) in entries.enumerated() {
            let name = String(decoding: entry.dropFirst(8), as: UTF8.self)
            if name == "encoder" || name == "com.apple.quicktime.software" { continue }
            if !keepLocation, name.lowercased().contains("location") { continue }
            renumbered[index + 1] = UInt32(renumbered.count + 1)
            kept += entry
        }
        guard !renumbered.isEmpty else { return nil }
        var keysPayload = Data(data[keys.body.lowerBound..<(keys.body.lowerBound + 4)])
        let count = UInt32(renumbered.count)
        keysPayload += Data(bigEndianBytes(UInt64(count), 4)) + kept
        var itemsPayload = Data()
        for item in boxes(in: data, items.body) {
            guard let number = renumbered[Int(uint32(data, item.range.lowerBound + 4))] else { continue }
            var copy = Data(data[item.range])
            copy.replaceSubrange((copy.startIndex + 4)..<(copy.startIndex + 8), with: bigEndianBytes(UInt64(number), 4))
            itemsPayload += copy
        }
        // Written as Apple writes it in `moov`: a plain box, which is what readers expect there
        // (exiftool takes version and flags there for a terminator).
        var payload = Data()
        for child in children {
            switch child.type {
            case "keys": payload += header("keys", payload: keysPayload.count) + keysPayload
            case "ilst": payload += header("ilst", payload: itemsPayload.count) + itemsPayload
            default: payload += data[child.range]
            }
        }
        return header("meta", payload: payload.count) + payload
    }

    /// `moov` with `extras` added: user data boxes into its `udta` (made when it has none; a type
    /// it has already is left as the muxer wrote it), the rest at its end.
    static func adding(_ extras: Extras, to moov: Data) -> Data {
        guard let root = boxes(in: moov, 0..<moov.count).first else { return moov }
        let children = boxes(in: moov, root.body)
        var payload = Data()
        var hadUserData = false
        for child in children {
            guard child.type == "udta" else {
                payload += moov[child.range]
                continue
            }
            hadUserData = true
            let present = Set(boxes(in: moov, child.body).map(\.type))
            let added = extras.userData.filter { !present.contains($0.type) }.reduce(Data()) { $0 + $1.data }
            let inner = Data(moov[child.body]) + added
            payload += header("udta", payload: inner.count) + inner
        }
        if !hadUserData, !extras.userData.isEmpty {
            let inner = extras.userData.reduce(Data()) { $0 + $1.data }
            payload += header("udta", payload: inner.count) + inner
        }
        payload += extras.moov.reduce(Data(), +)
        return header("moov", payload: payload.count) + payload
    }
}
