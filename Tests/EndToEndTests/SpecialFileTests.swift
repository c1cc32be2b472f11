// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// A FIFO where a preset, its logo, its font file or a pipeline template goes: refused by name in
/// one line with exit 64, never opened blocking. A logo or a font file that is a FIFO made
/// `batch` and `presets check` wait forever for a writer; the runner's timeout ends them if that
/// comes back.
@Suite struct SpecialFileTests {
    func fifo(_ name: String, in folder: URL) -> URL {
        let url = folder.appendingPathComponent(name)
        #expect(mkfifo(url.path, 0o644) == 0)
        return url
    }

    @Test func aFIFOAsALogoOrAFontFileIsRefusedByBatchAndPresetsCheck() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try put(
            PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil), "in/photo.jpg",
            in: folder)
        let logo = fifo("logo.png", in: folder), font = fifo("font.ttf", in: folder)
        let cases = [
            (
                #"{"marks": [{"image": "logo.png", "width": "10%"}]}"#,
                "image \(logo.path) is a FIFO (named pipe), not a regular file at $.marks[0].image; "
                    + "give the path of a PNG or SVG file"
            ),
            (
                #"{"marks": [{"text": "a", "font-file": "font.ttf"}]}"#,
                "font-file \(font.path) is a FIFO (named pipe), not a regular file at $.marks[0].font-file; "
                    + "give the path of a .ttf or .otf file"
            ),
        ]
        for (index, (json, message)) in cases.enumerated() {
            let preset = try put(Data(json.utf8), "p\(index).json", in: folder)
            let check = try camstamp(["presets", "check", preset.path], timeout: 20)
            #expect(check.status == 64, "\(json): \(check.status) \(check.stderr)")
            #expect(check.stderr == "camstamp: \(preset.path):1: \(message)\n")
            let output = folder.appendingPathComponent("out\(index)")
            let batch = try camstamp(["batch", photo.path, "-o", output.path, "--preset", preset.path], timeout: 20)
            #expect(batch.status == 64, "\(json): \(batch.status) \(batch.stderr)")
            #expect(batch.stderr == "camstamp: \(preset.path):1: \(message)\n")
            #expect(listing(output).isEmpty)
        }
    }

    @Test func aFIFOAsThePresetOrThePipelineTemplateIsCalledWhatItIs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try put(
            PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil), "in/photo.jpg",
            in: folder)
        let preset = fifo("preset.json", in: folder), template = fifo("capture.txt", in: folder)
        let refused = "is a FIFO (named pipe), not a regular file"
        let out = folder.appendingPathComponent("out").path
        let batch = ["batch", photo.path, "-o", out, "--preset", preset.path]
        for arguments in [["presets", "check", preset.path], batch] {
            let result = try camstamp(arguments, timeout: 20)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "camstamp: \(preset.path): \(refused); give a preset file (.json)\n")
        }
        let shoot = try camstamp(
            [
                "shoot", "--source", "test", "--text", "a", "--pipeline", template.path,
                "-o", folder.appendingPathComponent("shots").path + "/",
            ], timeout: 20)
        #expect(shoot.status == 64, "\(shoot.stderr)")
        #expect(shoot.stderr == "camstamp: --pipeline: \(template.path): \(refused); give a pipeline template file\n")
    }

    /// A sparse file of `size` bytes at `name` whose first bytes are `head`.
    func sparse(_ name: String, size: UInt64, head: Data = Data(), in folder: URL) throws -> URL {
        let url = try put(head, name, in: folder)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
        return url
    }

    /// A preset is small JSON: a 64 MiB file used to be read whole (a sparse 10 GB one took
    /// 20 GB before the OOM killer came) to be called invalid JSON.
    @Test func aPresetFileOverFourMiBIsRefusedUnread() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try put(
            PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil), "in/photo.jpg",
            in: folder)
        let preset = try sparse("big.json", size: 64 << 20, head: Data(#"{"marks": []}"#.utf8), in: folder)
        let out = folder.appendingPathComponent("out").path
        for arguments in [
            ["presets", "check", preset.path], ["batch", photo.path, "-o", out, "--preset", preset.path],
        ] {
            let result = try camstamp(arguments, timeout: 30)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr == "camstamp: \(preset.path): is 67108864 bytes, more than the 4194304 bytes read here; "
                    + "give a preset file (.json)\n")
        }
    }

    /// An INPUT named on the command line is whatever the user gave: one that is no photo is
    /// called that from its first bytes, and one larger than the machine's memory is refused
    /// unread. A 1 TiB file used to fail as "The operation could not be completed", or, starting
    /// like a JPEG, to trap the batch.
    @Test func aNamedInputIsNeverReadWholeToBeRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let zeros = try sparse("zeros.png", size: 1 << 40, in: folder)
        let jpeg = try sparse("big.jpg", size: 1 << 40, head: Data([0xFF, 0xD8, 0xFF, 0xE0]), in: folder)
        let out = folder.appendingPathComponent("out").path
        let result = try camstamp(
            ["batch", zeros.path, jpeg.path, "-o", out, "--text", "a", "--jobs", "1"], timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        let memory = ProcessInfo.processInfo.physicalMemory >> 20
        #expect(
            result.stderr.contains("camstamp: \(zeros.path): not a photo camstamp reads (the file starts like none"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "camstamp: \(jpeg.path): the file is 1048576 MB, more than this machine's memory "
                    + "(\(memory) MB); is it a photo?\n"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("0 marked, 2 failed, 0 skipped\n"), "\(result.stderr)")
    }
}
