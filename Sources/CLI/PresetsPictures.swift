// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
import Foundation
import Presets

/// `presets list --previews DIR` and `presets list --pictures`: each preset's line, then its
/// preview, in the terminal (when it shows pictures) or as a file whose path is printed.
public struct PresetPicturesOptions: Sendable, Equatable {
    /// Where the previews are written (NAME.jpg each, replaced if there); nil with `inline` alone.
    public var folder: URL?
    /// `--pictures`: shown in the terminal when it can.
    public var inline = false
}

enum PresetsPictures {
    /// The size of each sample photo: small enough for a terminal, large enough to read a mark.
    static let size = (width: 480, height: 320)

    static func run(
        _ options: PresetPicturesOptions, output: JobOutput,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CamStampError) -> ExitCode {
        let resources = Resources.locate()
        guard resources != nil else { throw Resources.notFound() }
        let folders = PresetFolders.all(resources: resources)
        let presets = PresetLibrary(directories: folders.map(\.url)).entries()
        let terminal = options.inline ? TerminalImages.detect(environment: environment) : nil
        var folder = options.folder
        if terminal == nil, folder == nil {
            folder = cacheFolder(environment)
            output.warning(
                "this terminal shows no pictures (stdout is no kitty, WezTerm, Ghostty, Konsole, iTerm2, foot or mlterm terminal; "
                    + "CAMSTAMP_PICTURES=kitty|iterm2|sixel names a protocol); "
                    + "the previews are files in \(folder!.path)")
        }
        if let folder {
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw .failure("cannot create \(folder.path): \(error.localizedDescription)")
            }
        }
        let width = presets.map(\.name.count).max() ?? 0
        var failed = false
        for preset in presets {
            let name = preset.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
            do throws(CamStampError) {
                let preview = try PresetPreview(presets: [.named(preset.file.path)], resources: resources)
                let sheet = try preview.sheet(width: size.width, height: size.height)
                let jpeg = try PresetPreview.jpeg(sheet, quality: 85)
                if let terminal {
                    output.result(name + preset.description)
                    let picture = TerminalImages.Picture(
                        width: sheet.width, height: sheet.height, rgb: rgb(sheet), jpeg: jpeg)
                    output.result(String(TerminalImages.sequence(picture, protocol: terminal).dropLast()))
                }
                if let folder {
                    let file = folder.appendingPathComponent("\(preset.name).jpg")
                    try PresetRenderJob.write(jpeg, to: file, overwrite: true)
                    if terminal == nil { output.result(name + file.path) }
                }
            } catch {
                output.error("\(preset.name): \(error.message)")
                failed = true
            }
        }
        return failed ? .failure : .success
    }

    /// `$XDG_CACHE_HOME/camstamp/previews`, else `~/.cache/camstamp/previews`.
    static func cacheFolder(_ environment: [String: String]) -> URL {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return URL(fileURLWithPath: cache).appendingPathComponent("camstamp/previews")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/camstamp/previews")
    }

    /// The RGBx sheet's pixels as packed RGB, as kitty's `f=24` takes them.
    private static func rgb(_ sheet: PixelBuffer) -> [UInt8] {
        let plane = sheet.planes[0]
        var out = [UInt8]()
        out.reserveCapacity(3 * sheet.width * sheet.height)
        for row in 0..<sheet.height {
            let start = row * plane.stride
            for column in 0..<sheet.width {
                let at = start + 4 * column
                out.append(contentsOf: plane.bytes[at..<at + 3])
            }
        }
        return out
    }
}
