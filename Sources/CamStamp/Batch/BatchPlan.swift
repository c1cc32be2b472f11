// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
internal import PhotoMetadata
import Presets

/// How batch tells formats apart and names them.
extension ImageFormat {
    /// The name said to users.
    var name: String {
        switch self {
        case .jpg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        case .tiff: "TIFF"
        case .heic: "HEIC"
        case .avif: "AVIF"
        }
    }

    /// The format of `header` (a file's first bytes, 32 are enough) by its signature; nil when
    /// it is none camstamp reads. The one place where formats are told apart by content.
    static func sniff(_ header: Data) -> ImageFormat? {
        let b = [UInt8](header.prefix(64))
        if b.starts(with: [0xFF, 0xD8]) { return .jpg }
        if b.starts(with: PNGChunk.signature) { return .png }
        if b.count >= 12, b[0..<4].elementsEqual("RIFF".utf8), b[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        // Classic and BigTIFF, either byte order.
        if b.starts(with: [0x49, 0x49, 0x2A, 0]) || b.starts(with: [0x4D, 0x4D, 0, 0x2A])
            || b.starts(with: [0x49, 0x49, 0x2B, 0]) || b.starts(with: [0x4D, 0x4D, 0, 0x2B])
        {
            return .tiff
        }
        // ISO BMFF: a `ftyp` box whose major or compatible brands name a HEIF still image.
        guard b.count >= 16, b[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = min(b.count, Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]))
        var brands = [String(decoding: b[8..<12], as: UTF8.self)]
        var at = 16
        while at + 4 <= boxSize {
            brands.append(String(decoding: b[at..<at + 4], as: UTF8.self))
            at += 4
        }
        if brands.contains(where: { ["avif", "avis"].contains($0) }) { return .avif }
        if brands.contains(where: { ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains($0) }) {
            return .heic
        }
        return nil
    }
}

/// The photos of a batch and where each one's output goes, worked out (and checked) before any
/// photo is touched.
struct BatchPlan {
    struct Item: Sendable {
        var input: URL
        /// Folder of the input relative to the INPUT folder it was found under ("" at the top).
        var relativeFolder: String
        var kind: ImageFormat
        var output: URL
        var outputKind: ImageFormat
        /// 1-based position, for `{counter}`.
        var counter: Int
    }

    var items: [Item] = []
    /// Video clips (MP4, MOV, MKV, WebM by content), marked by `ClipWorker`.
    var clips: [ClipItem] = []
    /// Files found in folders that are neither photos nor clips by their content (sidecars,
    /// hidden files): counted and named, not errors. A file named on the command line is never skipped.
    var skipped: [URL] = []
    /// Inputs that are not regular files (a FIFO, a device, a socket), with why: reported as
    /// failures and never opened (opening a FIFO blocks, /dev/zero never ends).
    var refused: [(url: URL, reason: String)] = []

    static let photoExtensions: [String: ImageFormat] = [
        "jpg": .jpg, "jpeg": .jpg, "jpe": .jpg, "png": .png,
        "webp": .webp, "tif": .tiff, "tiff": .tiff,
        "heic": .heic, "heif": .heic, "hif": .heic, "avif": .avif,
    ]

    /// Lists the inputs, tells photos from clips by content, and names (and checks) every output
    /// before any photo is touched.
    init(options: BatchOptions) throws(CamStampError) {
        let found = try collectInputs(options)
        let names = try Self.namePattern(options)
        try Self.checkEncoders(options)
        var resolver = OutputPath.Resolver()
        // Another shard's listed file is never touched: its folder is resolved, not the file.
        let inputs = Set(found.map { resolver.resolved($0.url, followingLink: !$0.elsewhere) })
        var claims = OutputClaims(inputs: inputs, resolver: resolver)
        for input in found {
            // By content first; a photo's extension on unreadable content still makes it an item
            // (reported as failed, as a damaged photo is); a file named explicitly always is one.
            // Another shard's listed file is judged by its name, for the clash check only.
            let sniffed =
                input.elsewhere ? Self.photoExtensions[input.url.pathExtension.lowercased()] : Self.sniff(input.url)
            if sniffed == nil, !input.url.lastPathComponent.hasPrefix("."),
                let clip = input.elsewhere
                    ? ClipItem.Format(naming: input.url, codec: options.videoCodec)
                    : ClipItem.Format(sniffing: input.url, codec: options.videoCodec)
            {
                try addClip(input, format: clip, options: options, names: names, claims: &claims)
            } else {
                try addPhoto(input, sniffed: sniffed, options: options, names: names, claims: &claims)
            }
        }
        // Only after every name is checked against the whole batch: each shard refuses the same
        // clashes, and {counter} stays the photo's number in the whole batch.
        items = items.filter { Self.inShard(options.shard, $0.relativeFolder, $0.input) }
    }

    /// A file to stamp: where it was found under its INPUT, whether the command line named it,
    /// and whether it is another shard's, named by `--list` (and so never opened or looked at).
    typealias Input = (url: URL, folder: String, explicit: Bool, elsewhere: Bool)

    /// The files named and those found in the folders named; what is not a regular file goes to
    /// `refused`.
    private mutating func collectInputs(_ options: BatchOptions) throws(CamStampError) -> [Input] {
        var found: [Input] = []
        var listing = Listing(recursive: options.recursive)
        // The output folder inside an input folder holds outputs, not inputs: a second run of
        // `batch . -o marked --recursive` would otherwise read them and be refused.
        var output = stat()
        if stat(options.outputFolder.path, &output) == 0 {
            listing.outputFolder = [UInt64(output.st_dev), UInt64(output.st_ino)]
        }
        if let list = options.list { return try listedInputs(list, options, outputFolder: listing.outputFolder) }
        for input in options.inputs {
            let kind = PathKind(of: input)
            guard kind != .missing else {
                throw .usage("\(input.path): no such file or folder")
            }
            if kind == .folder {
                try listing.walk(input, relative: "")
            } else if let reason = Self.notRegular(input) {
                refused.append((input, reason))
            } else {
                found.append((input, "", true, false))
            }
        }
        if let single = options.single, let refusal = single.refusal(options.inputs) { throw .usage(refusal) }
        refused += listing.refused
        refused = refused.filter { Self.inShard(options.shard, "", $0.url) }
        return found + listing.files.map { ($0.url, $0.folder, false, false) }
    }

    /// An output format this machine's libheif cannot write is refused before any work.
    private static func checkEncoders(_ options: BatchOptions) throws(CamStampError) {
        if options.format == .convert(.heic), !HEIFEncoder.isAvailable(.hevc) {
            throw .usage(
                "--format heic: this machine's libheif has no HEVC encoder (Debian's libheif1 has x265); use --format jpg"
            )
        }
        if options.format == .convert(.avif), !HEIFEncoder.isAvailable(.av1) {
            throw .usage(
                "\(options.single?.option ?? "--format avif"): this machine's libheif has no AV1 encoder "
                    + "(Debian's libheif1 has aom); name a .jpg or .heic file")
        }
    }

    private mutating func addClip(
        _ input: Input, format clip: ClipItem.Format, options: BatchOptions, names: Template,
        claims: inout OutputClaims
    ) throws(CamStampError) {
        if let single = options.single {
            throw .usage(
                "\(single.option) takes a photo, and \(input.url.path) is a video clip; "
                    + "make -o a folder (end it with /)")
        }
        let counter = items.count + clips.count + 1
        let name = try Self.outputName(names, pattern: options.namePattern, url: input.url, counter: counter)
        let output = options.outputFolder.appendingPathComponent(input.folder, isDirectory: true)
            .appendingPathComponent(name, isDirectory: false).appendingPathExtension(clip.fileExtension(for: input.url))
            .standardizedFileURL
        try claims.claim(output, for: input.url, followingLink: !input.elsewhere)
        if Self.inShard(options.shard, input.folder, input.url) {
            clips.append(
                ClipItem(
                    input: input.url, output: output, format: clip, counter: counter,
                    explicit: input.explicit))
        }
    }

    private mutating func addPhoto(
        _ input: Input, sniffed: ImageFormat?, options: BatchOptions, names: Template,
        claims: inout OutputClaims
    ) throws(CamStampError) {
        let url = input.url
        guard
            let kind = sniffed ?? Self.photoExtensions[url.pathExtension.lowercased()] ?? (input.explicit ? .jpg : nil),
            input.explicit || !url.lastPathComponent.hasPrefix(".")
        else {
            if Self.inShard(options.shard, input.folder, url) { skipped.append(url) }
            return
        }
        let counter = items.count + clips.count + 1
        let outputKind: ImageFormat =
            switch options.format {
            case .keep: sniffed.map { Self.keptKind($0) } ?? kind
            case .convert(let format): format
            }
        let name = try Self.outputName(names, pattern: options.namePattern, url: url, counter: counter)
        // keep: the input's own extension, unless the output's format differs (HEIC without an encoder).
        let keepsExtension =
            options.format == .keep && (sniffed.map { Self.keptKind($0) == $0 } ?? true)
            && !url.pathExtension.isEmpty
        let fileExtension = keepsExtension ? url.pathExtension : outputKind.fileExtension
        let output =
            options.single?.url
            ?? options.outputFolder.appendingPathComponent(input.folder, isDirectory: true)
            .appendingPathComponent(name, isDirectory: false).appendingPathExtension(fileExtension).standardizedFileURL
        try claims.claim(output, for: url, followingLink: !input.elsewhere)
        items.append(
            Item(
                input: url, relativeFolder: input.folder, kind: kind, output: output, outputKind: outputKind,
                counter: counter))
    }

    /// Refused before any work: an output that would replace an input, or two inputs that would
    /// write the same output.
    private struct OutputClaims {
        let inputs: Set<String>
        var resolver: OutputPath.Resolver
        var seen: [String: URL] = [:]

        /// Claims `output` for `url`; `followingLink` false for another shard's (never looked at).
        mutating func claim(_ output: URL, for url: URL, followingLink: Bool) throws(CamStampError) {
            let resolved = resolver.resolved(output, followingLink: followingLink)
            if inputs.contains(resolved) {
                throw .usage(
                    "\(output.path) would replace an input photo; choose another -o folder or a --name pattern such as '{stem}-marked'"
                )
            }
            if let other = seen[resolved] {
                throw .usage(
                    "\(other.path) and \(url.path) would both be written to \(output.path); use --name with {counter} or keep them in separate folders"
                )
            }
            seen[resolved] = url
        }
    }

    /// Whether `url`, found in `folder` under its INPUT, belongs to `shard` (all do without one).
    static func inShard(_ shard: Shard?, _ folder: String, _ url: URL) -> Bool {
        guard let shard else { return true }
        return shard.contains(
            relativePath: folder.isEmpty ? url.lastPathComponent : folder + "/" + url.lastPathComponent)
    }

    /// The format `--format keep` writes a `kind` photo in: its own, where this machine has an
    /// encoder for it (libheif's x265 for HEIC, aom for AVIF); JPEG otherwise.
    static func keptKind(_ kind: ImageFormat) -> ImageFormat {
        switch kind {
        case .heic: HEIFEncoder.isAvailable(.hevc) ? .heic : .jpg
        case .avif: HEIFEncoder.isAvailable(.av1) ? .avif : .jpg
        default: kind
        }
    }

    /// The format of the file at `url` by its first bytes; nil when unreadable or none camstamp reads.
    static func sniff(_ url: URL) -> ImageFormat? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 64)).flatMap { ImageFormat.sniff($0) }
    }

    /// The output name (without extension) of `url` from the `--name` pattern.
    private static func outputName(
        _ names: Template, pattern: String, url: URL, counter: Int
    ) throws(CamStampError) -> String {
        let stem = url.deletingPathExtension().lastPathComponent
        return try OutputName.checked(
            names.expand(
                TemplateContext(filename: url.lastPathComponent, stem: stem, counter: counter),
                escapingMarkup: false),
            pattern: pattern, option: "--name", for: url.path)
    }

    /// The `--name` pattern, checked against the variables a name can use.
    private static func namePattern(_ options: BatchOptions) throws(CamStampError) -> Template {
        do {
            return try Template(options.namePattern, variables: ["filename", "stem", "counter"])
        } catch {
            throw .usage("--name: \(error.description)")
        }
    }

    /// Why `url` (links followed) cannot be read as a photo, or nil for a regular file or a folder.
    static func notRegular(_ url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR,
            let kind = RegularFile.kind(ofMode: info.st_mode)
        else { return nil }
        return "not a photo file but \(kind); give photo files or folders of them"
    }

    /// The files under INPUT folders (and their subfolders when `recursive`), sorted, with their
    /// relative folder. Hidden folders are not entered; a folder reached twice (through a link,
    /// or a link loop) is listed once, known by its device and inode.
    private struct Listing {
        let recursive: Bool
        var files: [(url: URL, folder: String)] = []
        var refused: [(url: URL, reason: String)] = []
        private var visited: Set<[UInt64]> = []
        /// The output folder (device, inode), never walked as a subfolder.
        var outputFolder: [UInt64]?

        init(recursive: Bool) { self.recursive = recursive }

        mutating func walk(_ directory: URL, relative: String) throws(CamStampError) {
            var info = stat()
            guard stat(directory.path, &info) == 0, visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted
            else { return }
            if !relative.isEmpty, [UInt64(info.st_dev), UInt64(info.st_ino)] == outputFolder { return }
            let fileManager = FileManager.default
            let names: [String]
            do { names = try fileManager.contentsOfDirectory(atPath: directory.path) } catch {
                let reason =
                    "cannot list the folder (\((error as NSError).localizedFailureReason ?? error.localizedDescription))"
                // A subfolder (a card's lost+found) costs only itself, reported like a failed photo.
                guard relative.isEmpty else {
                    refused.append((directory, reason))
                    return
                }
                throw .failure("\(directory.path): \(reason)")
            }
            for name in names.sorted() {
                let url = directory.appendingPathComponent(name, isDirectory: false)
                let kind = PathKind(of: url)
                guard kind != .missing else { continue }
                if kind == .folder {
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
