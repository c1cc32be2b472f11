// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// What a marked clip keeps of what its container said: the creation time, a phone's location,
/// make and model, and user tags. exiftool is the referee; ffprobe reads the creation time as
/// players do.
@Suite(.serialized) struct ClipMetadataTests {
    static let created = "2024-05-06T07:08:09.000000Z"

    /// Ten frames of H.264 with AAC, made by ffmpeg with `metadata` (`-metadata K=V` pairs and
    /// muxer flags) into `url`, in the container its extension names.
    static func clip(_ url: URL, _ metadata: [String]) throws {
        try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=0.34", "-f", "lavfi", "-i",
                "sine=d=0.34",
                "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-metadata", "creation_time=\(created)",
            ]
                + metadata + [url.path])
    }

    /// exiftool's tags, `Group1:Name` to the value as a number where it is one (`-n`).
    static func tags(_ url: URL) throws -> [String: String] {
        var tags: [String: String] = [:]
        for line in try exiftool(["-a", "-G1", "-s", "-n"], url).split(separator: "\n") {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]"), let colon = line.range(of: " : ") else {
                continue
            }
            let group = line[line.index(after: line.startIndex)..<close]
            let name = line[line.index(after: close)..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
            tags["\(group):\(name)"] = String(line[colon.upperBound...])
        }
        return tags
    }

    /// The container's `creation_time`, as ffprobe (and so ffmpeg-based players) reads it.
    static func creationTime(_ url: URL) throws -> String {
        String(
            decoding: try tool(
                "ffprobe", ["-v", "error", "-show_entries", "format_tags=creation_time", "-of", "csv=p=0", url.path]),
            as: UTF8.self
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Marks `input` into a fresh folder and returns the output.
    static func mark(_ input: URL, _ extra: [String] = []) throws -> URL {
        let out = input.deletingLastPathComponent().appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "{time}"] + extra)
        #expect(
            result.status == 0 && result.stderr.hasSuffix("1 marked, 0 failed, 0 skipped\n"), "stderr: \(result.stderr)"
        )
        return out.appendingPathComponent(input.lastPathComponent)
    }

    /// An iPhone's MOV: Apple's `mdta` keys (location in ISO 6709, make, model, creation date)
    /// and the movie's creation time. qtmux stamped the time it ran and wrote none of the keys.
    @Test func anIPhoneMOVKeepsItsCreationTimeLocationAndCamera() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("IMG_0001.MOV")
        try Self.clip(
            input,
            [
                "-metadata", "location=+48.8584+002.2945/", "-metadata", "make=Apple", "-metadata", "model=iPhone 15",
                "-metadata", "title=Eiffel", "-movflags", "use_metadata_tags", "-f", "mov",
            ])
        let source = try Self.tags(input)
        #expect(
            source["Keys:Location"] == "+48.8584+002.2945/" && source["Keys:Make"] == "Apple", "the fixture: \(source)")
        let output = try Self.mark(input)
        let tags = try Self.tags(output)
        #expect(try Self.creationTime(output) == Self.created)
        for field in [
            "QuickTime:CreateDate", "Track1:TrackCreateDate", "Track1:MediaCreateDate", "Track2:TrackCreateDate",
        ] {
            #expect(tags[field] == "2024:05:06 07:08:09", "\(field): \(tags[field] ?? "none")")
        }
        for field in ["Keys:Location", "Keys:Make", "Keys:Model", "Keys:Title", "Keys:CreationTime"] {
            #expect(
                tags[field] != nil && tags[field] == source[field],
                "\(field): \(tags[field] ?? "none"), not \(source[field] ?? "none")")
        }
        // The encoder is camstamp's, not the source's (ffmpeg's `encoder` key).
        #expect(tags["Keys:Encoder"] == nil && !tags.values.contains { $0.hasPrefix("Lavf") }, "\(tags)")
        #expect(try Clips.streams(output).map(\.codec) == ["h264", "aac"])
    }

    /// An Android phone's MP4: `©xyz` with make and model in `udta`, title, artist and comment in
    /// iTunes tags, and the creation time.
    @Test func anAndroidMP4KeepsItsCreationTimeLocationAndTags() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = folder.appendingPathComponent("made.mp4"), input = folder.appendingPathComponent("PXL_0001.mp4")
        try Self.clip(made, ["-metadata", "title=Eiffel", "-metadata", "artist=Ann", "-metadata", "comment=hello"])
        _ = try exiftool([
            "-q", "-UserData:GPSCoordinates=48.8584, 2.2945", "-UserData:Make=Google", "-UserData:Model=Pixel 8",
            "-o", input.path, made.path,
        ])
        let source = try Self.tags(input)
        #expect(source["UserData:GPSCoordinates"] != nil, "the fixture: \(source)")
        let output = try Self.mark(input)
        let tags = try Self.tags(output)
        #expect(try Self.creationTime(output) == Self.created)
        #expect(
            tags["QuickTime:CreateDate"] == "2024:05:06 07:08:09"
                && tags["Track2:MediaCreateDate"] == "2024:05:06 07:08:09", "\(tags)")
        for field in [
            "UserData:GPSCoordinates", "UserData:Make", "UserData:Model", "ItemList:Title", "ItemList:Artist",
            "ItemList:Comment",
        ] {
            #expect(
                tags[field] != nil && tags[field] == source[field],
                "\(field): \(tags[field] ?? "none"), not \(source[field] ?? "none")")
        }
        #expect(tags["ItemList:Encoder"] == nil, "the source's encoder: \(tags["ItemList:Encoder"] ?? "")")
    }

    /// Matroska's `DateUTC`: matroskamux wrote the time it ran.
    @Test func aMatroskaClipKeepsItsDateUTC() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("clip.mkv")
        try Self.clip(input, ["-metadata", "title=Eiffel"])
        let output = try Self.mark(input)
        #expect(try Self.tags(output)["Matroska:DateTimeOriginal"] == "2024:05:06 07:08:09Z")
        #expect(try Self.creationTime(output) == Self.created)
        // The title stays; the encoder named is the muxer's own, not the source's (ffmpeg's
        // `Lavf…`). (exiftool reads a short clip's Tags, written after its clusters, only at times.)
        let tags = String(
            decoding: try tool(
                "ffprobe",
                [
                    "-v", "error", "-show_entries", "format_tags=title,encoder", "-of", "csv=p=0",
                    output.path,
                ]), as: UTF8.self)
        #expect(tags.contains("Eiffel") && !tags.contains("Lavf"), "\(tags)")
    }

    /// A clip with its location in every place a phone or an editor puts it: Apple's `mdta`
    /// key, `loci`, `©xyz` and XMP (which GStreamer carries as tags).
    static func locatedClip(in folder: URL) throws -> URL {
        let made = folder.appendingPathComponent("made.mov"), input = folder.appendingPathComponent("clip.mov")
        try Self.clip(
            made,
            [
                "-metadata", "location=+48.8584+002.2945/", "-metadata", "make=Apple", "-metadata", "title=Eiffel",
                "-movflags", "use_metadata_tags", "-f", "mov",
            ])
        _ = try exiftool([
            "-q", "-UserData:GPSCoordinates=48.8584, 2.2945", "-XMP-exif:GPSLatitude=48.8584",
            "-XMP-exif:GPSLongitude=2.2945",
            "-o", input.path, made.path,
        ])
        let located = try Self.tags(input).keys.filter { $0.contains("GPS") || $0.contains("Location") }
        #expect(
            Set(located).isSuperset(of: [
                "Keys:Location", "UserData:GPSCoordinates", "UserData:LocationInformation", "XMP-exif:GPSLatitude",
            ]),
            "the fixture: \(located)")
        return input
    }

    /// `--strip-gps` leaves a clip's location out, wherever it was, and keeps the rest.
    @Test func stripGPSLeavesAClipsLocationOut() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = try Self.tags(Self.mark(try Self.locatedClip(in: folder)))
        #expect(
            kept["XMP-exif:GPSLatitude"] != nil && kept["UserData:GPSCoordinates"] != nil,
            "without --strip-gps: \(kept)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("out"))
        let tags = try Self.tags(Self.mark(folder.appendingPathComponent("clip.mov"), ["--strip-gps"]))
        #expect(tags["Keys:Make"] == "Apple" && tags["QuickTime:CreateDate"] == "2024:05:06 07:08:09", "\(tags)")
        let location = tags.filter { $0.key.contains("GPS") || $0.key.contains("Location") }
        #expect(location.isEmpty, "\(location)")
    }

    /// `--strip-metadata` keeps nothing the source said: no tags, no location, no creation time.
    @Test func stripMetadataKeepsNoneOfIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tags = try Self.tags(Self.mark(try Self.locatedClip(in: folder), ["--strip-metadata"]))
        let left = tags.filter {
            ["Keys", "UserData", "ItemList"].contains($0.key.split(separator: ":")[0]) || $0.key.hasPrefix("XMP")
                || $0.value.contains("2024")
        }
        #expect(left.isEmpty, "\(left)")
    }

    /// An iPhone MOV named .mp4 is written by mp4mux, which wrote the `mdta` items qtdemux could
    /// not name as unnamed iTunes items (`Unknown_0x0002: +48.8584+002.2945/`), even under
    /// `--strip-gps`; they are named `mdta` keys again.
    @Test func anIPhoneMOVNamedMP4HasNoUnnamedItems() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("IMG_0002.mp4")
        try Self.clip(
            input,
            [
                "-metadata", "location=+48.8584+002.2945/", "-metadata", "model=iPhone 15", "-movflags",
                "use_metadata_tags", "-f", "mov",
            ])
        let output = try Self.mark(input)
        let text = try exiftool(["-a", "-G1", "-s", "-U"], output)
        #expect(!text.contains("Unknown_0x"), "\(text)")
        let tags = try Self.tags(output)
        #expect(tags["Keys:Location"] == "+48.8584+002.2945/" && tags["Keys:Model"] == "iPhone 15", "\(tags)")
    }
}
