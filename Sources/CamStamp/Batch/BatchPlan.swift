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
    /// Files that are not photos by their extension (sidecars, hidden files): counted, not errors.
    var skipped: [URL] = []

    static let photoExtensions: [String: Kind] = ["jpg": .jpeg, "jpeg": .jpeg, "jpe": .jpeg, "png": .png]

    init(options: BatchOptions) throws(CamStampError) {
        let fileManager = FileManager.default
        var found: [(url: URL, folder: String)] = []
        for input in options.inputs {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: input.path, isDirectory: &isDirectory) else {
                throw .usage("\(input.path): no such file or folder")
            }
            if isDirectory.boolValue {
                found += try Self.listFolder(input, recursive: options.recursive)
            } else {
                found.append((input, ""))
            }
        }
        let outputNames = try Self.namePattern(options)
        var seenOutputs: [String: URL] = [:]
        let inputPaths = Set(found.map { $0.url.standardizedFileURL.resolvingSymlinksInPath().path })
        for (url, folder) in found {
            guard let kind = Self.photoExtensions[url.pathExtension.lowercased()], !url.lastPathComponent.hasPrefix(".") else {
                skipped.append(url)
                continue
            }
            let counter = items.count + 1
            let outputKind: Kind = switch options.format {
            case .keep: kind
            case .convert(.jpg): .jpeg
            case .convert(.png): .png
            }
            let stem = url.deletingPathExtension().lastPathComponent
            let context = TemplateContext(filename: url.lastPathComponent, stem: stem, counter: counter)
            let name = outputNames.expand(context, escapingMarkup: false)
            guard !name.isEmpty, !name.contains("/") else {
                throw .usage("--name: '\(options.namePattern)' gives '\(name)' for \(url.path); a name must be non-empty and have no '/'")
            }
            let fileExtension = options.format == .keep ? url.pathExtension : (outputKind == .jpeg ? "jpg" : "png")
            let output = options.outputFolder.appendingPathComponent(folder, isDirectory: true)
                .appendingPathComponent(name).appendingPathExtension(fileExtension).standardizedFileURL
            let resolved = output.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(output.lastPathComponent).path
            // Refused before any work: an output that would replace an input, or two inputs
            // that would write the same output.
            if inputPaths.contains(resolved) {
                throw .usage("\(output.path) would replace an input photo; choose another -o folder or a --name pattern such as '{stem}-marked'")
            }
            if let other = seenOutputs[resolved] {
                throw .usage("\(other.path) and \(url.path) would both be written to \(output.path); use --name with {counter} or keep them in separate folders")
            }
            seenOutputs[resolved] = url
            items.append(Item(input: url, relativeFolder: folder, kind: kind, output: output, outputKind: outputKind, counter: counter))
        }
    }

    /// The `--name` pattern, checked against the variables a name can use.
    private static func namePattern(_ options: BatchOptions) throws(CamStampError) -> Template {
        do {
            return try Template(options.namePattern, variables: ["filename", "stem", "counter"])
        } catch {
            throw .usage("--name: \(error.description)")
        }
    }

    /// Files in `folder` (and its subfolders when `recursive`), sorted, with their relative folder.
    /// Hidden folders are not entered.
    private static func listFolder(_ folder: URL, recursive: Bool) throws(CamStampError) -> [(url: URL, folder: String)] {
        let fileManager = FileManager.default
        var results: [(URL, String)] = []
        func walk(_ directory: URL, relative: String) throws(CamStampError) {
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
                } else {
                    results.append((url, relative))
                }
            }
        }
        try walk(folder, relative: "")
        return results
    }
}
