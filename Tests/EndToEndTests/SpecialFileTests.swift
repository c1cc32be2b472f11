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
}
