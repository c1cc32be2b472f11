// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Presets
import Testing
import TestSupport
@testable import CamStamp

/// The embeddable API: `Stamper` on encoded images and raw frames, in memory, checked on the
/// pixels and metadata it gives back (exiftool and ImageMagick as referees).
@Suite struct LibraryTests {
    /// A solid white box top-left: 5% margin, so on 320×240 it starts at (12, 12).
    static let boxPreset = """
        {"name": "box", "marks": [{"text": "HELLO", "size": "8%", "color": "#FFFFFF", "anchor": "top-left",
          "margin": "5%", "box": {"color": "#FFFFFFFF", "padding": "1%"}}]}
        """

    /// A 320×240 grey (64) photo of `ext`, with `tags` written by exiftool.
    static func photo(_ ext: String, tags: [String], in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("source.\(ext)")
        try makePicture(url, ["-size", "320x240", "xc:#404040", "-quality", "92"])
        if !tags.isEmpty { try tool("exiftool", ["-q", "-overwrite_original"] + tags + [url.path]) }
        return url
    }

    /// The luma of an encoded image, decoded by ImageMagick, as rows.
    static func grey(_ data: Data, width: Int, height: Int, in folder: URL) throws -> [[UInt8]] {
        let file = folder.appendingPathComponent("decoded-\(UUID().uuidString.prefix(6))")
        try data.write(to: file)
        let bytes = [UInt8](try tool("convert", [file.path, "-colorspace", "gray", "-depth", "8", "gray:-"]))
        #expect(bytes.count == width * height)
        return (0..<height).map { Array(bytes[($0 * width)..<($0 * width + width)]) }
    }

    /// The mark lands where the preset puts it: from the 5% margin, within the top-left quarter.
    static func expectTopLeftBox(_ rows: [[UInt8]], background: UInt8 = 64) {
        guard let box = changedBounds(rows, background: background, tolerance: 8) else {
            Issue.record("no pixel changed")
            return
        }
        #expect(
            abs(box.minX - 12) <= 2 && abs(box.minY - 12) <= 2,
            "the box starts at \(box.minX),\(box.minY), expected 12,12")
        #expect(
            box.maxX < 160 && box.maxY < 120, "the box ends at \(box.maxX),\(box.maxY), beyond the top-left quarter")
        #expect(
            box.maxX - box.minX > 20 && box.maxY - box.minY > 10,
            "the box is only \(box.maxX - box.minX)×\(box.maxY - box.minY)")
    }

    @Test func aJPEGInMemoryIsMarkedWhereThePresetSaysAndKeepsItsMetadata() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.photo(
            "jpg",
            tags: [
                "-Model=Library Cam", "-Artist=Ann", "-GPSLatitude=48.85", "-GPSLatitudeRef=N",
                "-XMP-dc:Creator=Ann",
            ], in: folder)
        // A motion photo's video after the end: stamped, with a warning that it is not carried.
        var input = try Data(contentsOf: source)
        input.append(Data(repeating: 0x42, count: 100))
        let stamper = try Stamper(presets: [.json(Self.boxPreset)])
        let result = try stamper.stamp(input, filename: "source.jpg")
        #expect(result.format == .jpg)
        #expect(result.width == 320 && result.height == 240)
        #expect(result.data.starts(with: [0xFF, 0xD8]))
        Self.expectTopLeftBox(try Self.grey(result.data, width: 320, height: 240, in: folder))
        #expect(result.report.metadata == CarriedMetadata(exif: true, gps: true, icc: false, xmp: true, iptc: false))
        #expect(
            result.report.warnings == [
                "100 bytes after the picture's end (such as a motion photo's video) are not carried to the output"
            ])
        let output = folder.appendingPathComponent("out.jpg")
        try result.data.write(to: output)
        let read = try tool("exiftool", ["-s", "-Model", "-Artist", "-Creator", "-GPSLatitude", output.path])
        let tags = String(decoding: read, as: UTF8.self)
        #expect(tags.contains("Model                           : Library Cam"), "\(tags)")
        #expect(tags.contains("Artist                          : Ann"), "\(tags)")
        #expect(tags.contains("Creator                         : Ann"), "\(tags)")
        #expect(tags.contains("GPSLatitude"), "\(tags)")
        // The input bytes are the caller's: not written to.
        #expect(try Data(contentsOf: source) + Data(repeating: 0x42, count: 100) == input)
    }

    @Test(.runsGStreamerElements) func settingsStripTheLocationAndConvertToPNG() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.photo(
            "jpg", tags: ["-Model=Library Cam", "-GPSLatitude=48.85", "-GPSLatitudeRef=N"], in: folder)
        let stamper = try Stamper(
            presets: [.json(Self.boxPreset)], settings: .init(format: .convert(.png), metadata: .stripGPS))
        let result = try stamper.stamp(contentsOf: source)
        #expect(result.format == .png)
        #expect(result.data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(result.report.metadata.exif && !result.report.metadata.gps)
        let output = folder.appendingPathComponent("out.png")
        try result.data.write(to: output)
        let tags = String(decoding: try tool("exiftool", ["-s", "-Model", "-GPSLatitude", output.path]), as: UTF8.self)
        #expect(tags.contains("Library Cam") && !tags.contains("GPSLatitude"), "\(tags)")
    }

    @Test(.runsGStreamerElements) func aPNGInMemoryIsMarkedAndKeepsItsXMP() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.photo("png", tags: ["-XMP-dc:Creator=Bo"], in: folder)
        let stamper = try Stamper(presets: [.json(Self.boxPreset)], variables: ["unused": "x"])
        let result = try stamper.stamp(try Data(contentsOf: source))
        #expect(result.format == .png)
        #expect(result.report.warnings.isEmpty)
        #expect(result.report.metadata.xmp && !result.report.metadata.exif)
        Self.expectTopLeftBox(try Self.grey(result.data, width: 320, height: 240, in: folder))
        let output = folder.appendingPathComponent("out.png")
        try result.data.write(to: output)
        #expect(
            String(decoding: try tool("exiftool", ["-s", "-Creator", output.path]), as: UTF8.self).contains(": Bo"))
    }

    /// A PNG's profile (a zlib-compressed iCCP) is carried into the JPEG and the PNG the library
    /// writes, byte for byte, and the report says so.
    @Test(.runsGStreamerElements) func aPNGsColourProfileIsCarriedAndReported() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // An ICC header with no tags (RGB display, v2.1) is all exiftool and camstamp need here.
        var profile = [UInt8](repeating: 0, count: 132)
        profile[3] = 132
        profile.replaceSubrange(8..<12, with: [2, 0x10, 0, 0])
        profile.replaceSubrange(12..<24, with: Array("mntrRGB XYZ ".utf8))
        profile.replaceSubrange(36..<40, with: Array("acsp".utf8))
        let profileFile = folder.appendingPathComponent("p.icc")
        try Data(profile).write(to: profileFile)
        // An RGB PNG (a grey one's profile must be grey, and is not carried into colour outputs).
        let source = folder.appendingPathComponent("source.png")
        try makePicture(source, ["-size", "320x240", "xc:#404040"])
        try tool("exiftool", ["-q", "-overwrite_original", "-ICC_Profile<=\(profileFile.path)", source.path])
        for format in [ImageFormat.jpg, .png] {
            let result = try Stamper(presets: [.json(Self.boxPreset)], settings: .init(format: .convert(format))).stamp(
                contentsOf: source)
            #expect(result.report.warnings.isEmpty, "\(format): \(result.report.warnings)")
            #expect(result.report.metadata.icc, "\(format)")
            let output = folder.appendingPathComponent("out-\(format)")
            try result.data.write(to: output)
            #expect(try tool("exiftool", ["-b", "-ICC_Profile", output.path]) == Data(profile), "\(format)")
        }
    }

    @Test(.runsGStreamerElements) func presetsByNameAndVariablesReachTheMark() throws {
        // The shipped `credit` preset, its {author} set by the caller: the text changes the pixels
        // bottom-right (where `credit` puts it), and nothing else.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.photo("png", tags: [], in: folder)
        let result = try Stamper(presets: [.named("credit")], variables: ["author": "Library Test"]).stamp(
            contentsOf: source)
        let rows = try Self.grey(result.data, width: 320, height: 240, in: folder)
        let box = try #require(changedBounds(rows, background: 64, tolerance: 8))
        #expect(box.minX >= 160 && box.minY >= 120, "credit marked \(box), expected the bottom-right quarter")
    }

    /// An I420 frame of grey 64 with rows padded to `stride` bytes of 0xEE.
    static func paddedFrame(stride: Int) throws -> PixelBuffer {
        let sizes = PixelBuffer.Format.i420.planeSizes(width: 320, height: 240)
        let planes = sizes.enumerated().map { index, size -> PixelBuffer.Plane in
            let rowStride = index == 0 ? stride : stride / 2
            var bytes = [UInt8](repeating: 0xEE, count: rowStride * size.rows)
            for row in 0..<size.rows {
                for x in 0..<size.rowBytes { bytes[row * rowStride + x] = index == 0 ? 64 : 128 }
            }
            return PixelBuffer.Plane(bytes: bytes, stride: rowStride)
        }
        return try PixelBuffer(format: .i420, width: 320, height: 240, planes: planes)
    }

    @Test func aRawFrameChangesInsideTheMarksBoxOnly() throws {
        let stamper = try Stamper(presets: [.json(Self.boxPreset)])
        let original = try Self.paddedFrame(stride: 352)
        var frame = original
        try stamper.mark(&frame, frameNumber: 1, fps: 30)
        let luma = frame.planes[0]
        let rows = (0..<240).map { Array(luma.bytes[($0 * 352)..<($0 * 352 + 320)]) }
        Self.expectTopLeftBox(rows)
        // The padding past each row's pixels is the caller's: untouched, in every plane.
        for (index, plane) in frame.planes.enumerated() {
            let size = PixelBuffer.Format.i420.planeSizes(width: 320, height: 240)[index]
            for row in 0..<size.rows {
                #expect(
                    plane.bytes[(row * plane.stride + size.rowBytes)..<((row + 1) * plane.stride)].allSatisfy {
                        $0 == 0xEE
                    },
                    "plane \(index) row \(row): padding written")
            }
        }
        // The same pixels as the marks blended natively into a GStreamer frame.
        let native = try VideoFrame(width: 320, height: 240, format: .i420)
        try native.withMapped { mapped in
            for index in 0..<3 {
                mapped.plane(index).initializeMemory(as: UInt8.self, repeating: index == 0 ? 64 : 128)
            }
        }
        let marker = FrameMarker(preset: stamper.preset, variables: stamper.variables)
        try marker.mark(native, context: marker.context(width: 320, height: 240, frame: 1, fps: 30))
        let nativeLuma = try native.withMapped { mapped in
            (0..<240).map { y in Array(mapped.plane(0)[(y * mapped.stride(0))..<(y * mapped.stride(0) + 320)]) }
        }
        #expect(nativeLuma == rows)
    }

    @Test func aPackedRGBAFrameIsMarkedInItsOwnFormat() throws {
        let stamper = try Stamper(presets: [.json(Self.boxPreset)])
        var frame = try PixelBuffer(format: .rgba, width: 320, height: 240)
        for index in stride(from: 0, to: frame.planes[0].bytes.count, by: 4) {
            frame.planes[0].bytes.replaceSubrange(index..<index + 4, with: [64, 64, 64, 255])
        }
        try stamper.mark(&frame)
        let stride = frame.planes[0].stride
        let rows = (0..<240).map { y in (0..<320).map { x in frame.planes[0].bytes[y * stride + x * 4] } }
        Self.expectTopLeftBox(rows)
    }

    @Test func aBadPixelBufferIsATypedError() throws {
        #expect(throws: CamStampError.usage("pixel buffer: I420 has 3 plane(s), 1 given")) {
            try PixelBuffer(
                format: .i420, width: 4, height: 4, planes: [.init(bytes: [UInt8](repeating: 0, count: 16), stride: 4)])
        }
        #expect(
            throws: CamStampError.usage(
                "pixel buffer: plane 0 has a stride of 8 bytes, less than the 16 of one 4-pixel RGBA row")
        ) {
            try PixelBuffer(
                format: .rgba, width: 4, height: 4, planes: [.init(bytes: [UInt8](repeating: 0, count: 64), stride: 8)])
        }
        // Planes replaced after the checks of init are checked again, not read out of bounds.
        var frame = try PixelBuffer(format: .rgba, width: 64, height: 64)
        frame.planes[0].bytes = [1, 2, 3]
        let stamper = try Stamper(text: "x")
        #expect(
            throws: CamStampError.usage("pixel buffer: plane 0 has 3 bytes, 16384 needed for 64 rows of stride 256")
        ) {
            try stamper.mark(&frame)
        }
    }

    @Test func aCancelledTokenStopsARunBetweenImages() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Data(contentsOf: Self.photo("jpg", tags: [], in: folder))
        let stamper = try Stamper(presets: [.json(Self.boxPreset)])
        let token = CancellationToken()
        var seen: [Int] = []
        // Cancelled while the first image is finishing: it is kept, the others are not started.
        #expect(throws: CamStampError.cancelled("1 of 4 images stamped")) {
            try stamper.stampAll(Array(repeating: .data(image, filename: "a.jpg"), count: 4), cancellation: token) {
                index, result in
                seen.append(index)
                if case .failure(let error) = result { Issue.record("image \(index): \(error)") }
                token.cancel()
            }
        }
        #expect(seen == [0])
        #expect(CamStampError.cancelled("x").kind == .interrupted)
        // A frame is left untouched once the token is cancelled.
        var frame = try Self.paddedFrame(stride: 320)
        let before = frame
        #expect(throws: CamStampError.cancelled("frame 7 not marked")) {
            try stamper.mark(&frame, frameNumber: 7, cancellation: token)
        }
        #expect(frame == before)
    }

    /// `stamp(contentsOf:)` reads as batch does: a file that is no photo is called that from its
    /// first bytes, one larger than the machine's memory is refused unread (a 1 TiB file starting
    /// like a JPEG was read whole, or failed as "The operation could not be completed").
    @Test func aFileIsNeverReadWholeToBeRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stamper = try Stamper(text: "x")
        func sparse(_ name: String, head: Data) throws -> URL {
            let url = folder.appendingPathComponent(name)
            try head.write(to: url)
            #expect(truncate(url.path, 1 << 40) == 0)
            return url
        }
        let zeros = try sparse("zeros.png", head: Data())
        let jpeg = try sparse("big.jpg", head: Data([0xFF, 0xD8, 0xFF, 0xE0]))
        let memory = ProcessInfo.processInfo.physicalMemory >> 20
        #expect {
            try stamper.stamp(contentsOf: zeros)
        } throws: {
            "\($0)".hasPrefix("\(zeros.path): not a photo camstamp reads (the file starts like none")
        }
        #expect {
            try stamper.stamp(contentsOf: jpeg)
        } throws: {
            "\($0)"
                == "\(jpeg.path): the file is 1048576 MB, more than this machine's memory (\(memory) MB); is it a photo?"
        }
    }

    @Test func aRunGoesOnPastABadImage() throws {
        let stamper = try Stamper(text: "x")
        let results = try stamper.stampAll([.data(Data("not an image".utf8), filename: "notes.txt")])
        #expect(results.count == 1)
        guard case .failure(let error) = results[0] else {
            Issue.record("a text file was stamped")
            return
        }
        #expect(
            error
                == .failure(
                    "not a photo camstamp reads (the file starts like none of JPEG, PNG, WebP, HEIC/HEIF, AVIF or TIFF)"
                ))
    }

    @Test func badPresetJSONIsATypedErrorWithTheReason() {
        do {
            _ = try Stamper(presets: [.json(#"{"name": "x", "marks": [{"txt": "hello"}]}"#)])
            Issue.record("a preset with an unknown key was accepted")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message == "unknown key 'txt' at $.marks[0]; did you mean 'text'?")
        }
        do {
            _ = try Stamper(presets: [.json(#"{"name": "x", "marks": ["#)])
            Issue.record("truncated JSON was accepted")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message.hasPrefix("invalid JSON: unexpected end of file"), "\(error.message)")
        }
        #expect(throws: CamStampError.self) { try Stamper() }
        #expect(throws: CamStampError.usage("quality 101 is out of range; give 1…100")) {
            try Stamper(text: "x", settings: .init(quality: 101))
        }
    }

    @Test func framesNeedNoShippedFilesAndPhotosSayWhatIsMissing() throws {
        let stamper = try Stamper(presets: [.json(Self.boxPreset)], resources: nil)
        var frame = try Self.paddedFrame(stride: 320)
        try stamper.mark(&frame)
        Self.expectTopLeftBox((0..<240).map { Array(frame.planes[0].bytes[($0 * 320)..<($0 * 320 + 320)]) })
        // The wording of where it looked belongs to Resources; here only that it says what is missing.
        do {
            _ = try stamper.stamp(Data([0xFF, 0xD8]))
            Issue.record("a photo was stamped without the photo pipelines")
        } catch {
            #expect(error.kind == .failure && error.message.contains("pipelines"), "\(error.message)")
        }
    }

    @Test func aPresetValueStacksWithJSON() throws {
        let logo = Preset(name: "value", variables: ["who": "me"], marks: [Mark(content: .text("{who}"))])
        let stamper = try Stamper(presets: [
            .preset(logo), .json(#"{"name": "j", "marks": [{"text": "{who} again"}]}"#),
        ])
        #expect(stamper.preset.name == "value+j")
        #expect(stamper.preset.marks.count == 2)
        #expect(stamper.variables == ["who": "me"])
    }
}
