import Foundation
import Presets

/// The photos of a batch and where each one's output goes, worked out (and checked) before any
/// photo is touched.
struct BatchPlan {
    enum Kind: Sendable { case jpeg, png }

    struct Item: Sendable {
        var input: URL
        /// Folder of the input relative to the INPUT folder it was found under ("" at the top).
        var relativeFolder: String
        var kind: Kind
        var output: URL
        var outputKind: Kind
        /// 1-based position, for `{counter}`.
        var counter: Int
    }

    var items: [Item] = []
    /// Video clips (MP4, MOV, MKV, WebM by content), marked by `ClipWorker`.
    var clips: [ClipItem] = []
    /// Files that are not photos by their extension (sidecars, hidden files): counted, not errors.
    var skipped: [URL] = []
    /// Inputs that are not regular files (a FIFO, a device, a socket), with why: reported as
    /// failures and never opened (opening a FIFO blocks, /dev/zero never ends).
    var refused: [(url: URL, reason: String)] = []

    static let photoExtensions: [String: Kind] = ["jpg": .jpeg, "jpeg": .jpeg, "jpe": .jpeg, "png": .png]

    init(options: BatchOptions) throws(CamStampError) {
        let fileManager = FileManager.default
        var found: [(url: URL, folder: String)] = []
        var listing = Listing(recursive: options.recursive)
        for input in options.inputs {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: input.path, isDirectory: &isDirectory) else {
                throw .usage("\(input.path): no such file or folder")
            }
            if isDirectory.boolValue {
                try listing.walk(input, relative: "")
            } else if let reason = Self.notRegular(input) {
                refused.append((input, reason))
            } else {
                found.append((input, ""))
            }
        }
        found += listing.files
        refused += listing.refused
        let outputNames = try Self.namePattern(options)
        var seenOutputs: [String: URL] = [:]
        let inputPaths = Set(found.map { $0.url.standardizedFileURL.resolvingSymlinksInPath().path })
        // Refused before any work: an output that would replace an input, or two inputs that
        // would write the same output.
        func claim(_ output: URL, for url: URL) throws(CamStampError) {
            let resolved = output.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(output.lastPathComponent).path
            if inputPaths.contains(resolved) {
                throw .usage("\(output.path) would replace an input photo; choose another -o folder or a --name pattern such as '{stem}-marked'")
            }
            if let other = seenOutputs[resolved] {
                throw .usage("\(other.path) and \(url.path) would both be written to \(output.path); use --name with {counter} or keep them in separate folders")
            }
            seenOutputs[resolved] = url
        }
        for (url, folder) in found {
            if Self.photoExtensions[url.pathExtension.lowercased()] == nil, !url.lastPathComponent.hasPrefix("."),
               let clip = ClipItem.Format(sniffing: url, codec: options.videoCodec) {
                let counter = items.count + clips.count + 1
                let name = try Self.outputName(outputNames, pattern: options.namePattern, url: url, counter: counter)
                let output = options.outputFolder.appendingPathComponent(folder, isDirectory: true)
                    .appendingPathComponent(name).appendingPathExtension(clip.fileExtension(for: url)).standardizedFileURL
                try claim(output, for: url)
                clips.append(ClipItem(input: url, output: output, format: clip, counter: counter))
                continue
            }
            guard let kind = Self.photoExtensions[url.pathExtension.lowercased()], !url.lastPathComponent.hasPrefix(".") else {
                skipped.append(url)
                continue
            }
            let counter = items.count + clips.count + 1
            let outputKind: Kind = switch options.format {
            case .keep: kind
            case .convert(.jpg): .jpeg
            case .convert(.png): .png
            }
            let name = try Self.outputName(outputNames, pattern: options.namePattern, url: url, counter: counter)
            let fileExtension = options.format == .keep ? url.pathExtension : (outputKind == .jpeg ? "jpg" : "png")
            let output = options.outputFolder.appendingPathComponent(folder, isDirectory: true)
                .appendingPathComponent(name).appendingPathExtension(fileExtension).standardizedFileURL
            try claim(output, for: url)
            items.append(Item(input: url, relativeFolder: folder, kind: kind, output: output, outputKind: outputKind, counter: counter))
        }
    }

    /// The output name (without extension) of `url` from the `--name` pattern.
    private static func outputName(_ names: Template, pattern: String, url: URL, counter: Int) throws(CamStampError) -> String {
        let stem = url.deletingPathExtension().lastPathComponent
        let name = names.expand(TemplateContext(filename: url.lastPathComponent, stem: stem, counter: counter), escapingMarkup: false)
        guard !name.isEmpty, !name.contains("/") else {
            throw .usage("--name: '\(pattern)' gives '\(name)' for \(url.path); a name must be non-empty and have no '/'")
        }
        return name
    }

    /// The `--name` pattern, checked against the variables a name can use.
    private static func namePattern(_ options: BatchOptions) throws(CamStampError) -> Template {
        do {
            return try Template(options.namePattern, variables: ["filename", "stem", "counter"])
        } catch {
            throw .usage("--name: \(error.description)")
        }
    }

    /// Why `url` (links followed) cannot be read as a photo, or nil for a regular file.
    static func notRegular(_ url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        return "not a photo file but \(kind); give JPEG or PNG files or folders of them"
    }

    /// The files under INPUT folders (and their subfolders when `recursive`), sorted, with their
    /// relative folder. Hidden folders are not entered; a folder reached twice (through a link,
    /// or a link loop) is listed once, known by its device and inode.
    private struct Listing {
        let recursive: Bool
        var files: [(url: URL, folder: String)] = []
        var refused: [(url: URL, reason: String)] = []
        private var visited: Set<[UInt64]> = []

        init(recursive: Bool) { self.recursive = recursive }

        mutating func walk(_ directory: URL, relative: String) throws(CamStampError) {
            var info = stat()
            guard stat(directory.path, &info) == 0, visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return }
            let fileManager = FileManager.default
            let names: [String]
            do { names = try fileManager.contentsOfDirectory(atPath: directory.path) } catch {
                throw .failure("\(directory.path): cannot list the folder (\(error.localizedDescription))")
            }
            for name in names.sorted() {
                let url = directory.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    if recursive && !name.hasPrefix(".") {
                        try walk(url, relative: relative.isEmpty ? name : relative + "/" + name)
                    }
                } else if let reason = BatchPlan.notRegular(url), !name.hasPrefix(".") {
                    refused.append((url, reason))
                } else {
                    files.append((url, relative))
                }
            }
        }
    }
}
