// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// `camstamp presets render NAME`: what to draw and where to write it.
public struct PresetRenderOptions: Sendable, Equatable {
    /// A preset name (shipped or the user's) or a path to a preset JSON file.
    public var preset: String
    /// The JPEG to write, or a folder to write `NAME.jpg` into; nil writes it in the current folder.
    public var output: URL?
    /// `-o -`: the JPEG goes to stdout.
    public var toStandardOutput = false
    /// The size of the landscape picture (the portrait one is the same turned).
    public var size = FrameSize(width: PresetPreview.defaultSize.width, height: PresetPreview.defaultSize.height)
    /// Which sample photos are drawn on.
    public var layout: PresetPreview.Layout = .both
    /// `--var K=V`, over the preset's own variables.
    public var variables: [VariableAssignment] = []
    /// Replace an existing output.
    public var overwrite = false
    /// The JPEG quality (1…100).
    public var quality = ShootOptions.defaultQuality

    /// Options for `preset` with the defaults.
    public init(preset: String) { self.preset = preset }

    /// Where the preview goes: -o, or NAME.jpg in the current folder or in the folder -o names
    /// (NAME is the preset's file name stem, so a path renders as its name).
    public var outputURL: URL {
        var isFolder: ObjCBool = false
        let folder =
            output.map { FileManager.default.fileExists(atPath: $0.path, isDirectory: &isFolder) && isFolder.boolValue }
            ?? true
        if let output, !folder { return output }
        let name = URL(fileURLWithPath: preset).deletingPathExtension().lastPathComponent
        let base = output ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return base.appendingPathComponent("\(name).jpg")
    }
}

/// Renders a preset's preview and writes it as one file, whole or not at all.
public struct PresetRenderJob {
    /// What to draw and where.
    public let options: PresetRenderOptions

    /// A job for `options`.
    public init(options: PresetRenderOptions) { self.options = options }

    /// The preview's JPEG bytes.
    public func render(resources: Resources? = Resources.locate()) throws(CamStampError) -> Data {
        let variables = Dictionary(
            options.variables.map { ($0.key, $0.value) }, uniquingKeysWith: { _, later in later })
        let preview = try PresetPreview(presets: [.named(options.preset)], variables: variables, resources: resources)
        let sheet = try preview.sheet(width: options.size.width, height: options.size.height, layout: options.layout)
        return try PresetPreview.jpeg(sheet, quality: options.quality)
    }

    /// Renders and writes the preview; returns where it was written (nil for stdout).
    public func run(resources: Resources? = Resources.locate()) throws(CamStampError) -> URL? {
        let target = options.outputURL
        if !options.toStandardOutput, !options.overwrite, FileManager.default.fileExists(atPath: target.path) {
            throw Self.exists(target)
        }
        let data = try render(resources: resources)
        if options.toStandardOutput {
            FileHandle.standardOutput.write(data)
            return nil
        }
        try Self.write(data, to: target, overwrite: options.overwrite)
        return target
    }

    /// Writes `data` to a temporary file beside `target`, then links it into place (renames it
    /// over an existing file when `overwrite`): a reader sees no half file, and without
    /// `overwrite` an existing file is never replaced.
    public static func write(_ data: Data, to target: URL, overwrite: Bool) throws(CamStampError) {
        let folder = target.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .usage("cannot write \(target.path): there is no folder \(folder.path); create it first")
        }
        let temporary = TemporaryFiles.temporaryURL(in: folder, for: target.lastPathComponent)
        TemporaryFiles.shared.add(temporary)
        defer { TemporaryFiles.shared.remove(temporary) }
        do throws(POSIXError) { try TemporaryFiles.write(data, to: temporary) } catch {
            throw .failure("cannot write \(target.path): \(String(cString: strerror(error.code.rawValue)))")
        }
        try TemporaryFiles.moveIntoPlace(temporary, at: target, replacing: overwrite, exists: exists(target))
    }

    /// As shoot says it of its -o file.
    static func exists(_ target: URL) -> CamStampError {
        .failure("\(target.path) already exists; use --overwrite to replace it or -o to write elsewhere")
    }
}
