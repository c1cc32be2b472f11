// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// `batch --list FILE`: the names of the photos under the one INPUT folder, read from a listing
/// made once (`cd INPUT && find . -type f -print0 > list`) instead of walking the folder. Every
/// shard of a large corpus otherwise lists the whole tree, one `stat` and one `open` a name, on
/// what is often a network file system; with a listing a shard touches only its own files.
///
/// One name a line, or NUL-separated when the file holds a NUL (what `find -print0` writes, and
/// the only form that carries any name). A leading `./` is dropped; empty lines are ignored.
struct ListFile {
    /// The most names a listing may hold: ten million (a studio's archive is about a million).
    static let maxNames = 10_000_000
    /// The largest listing read: 2 GiB (ten million names of ~200 bytes).
    static let maxBytes = 2 << 30

    /// The names, relative to INPUT, in the walk's order, each with its folder ("" at the top) and
    /// its path's components.
    var names: [(path: String, folder: String, parts: [String])] = []

    /// Reads and checks `url`: a usage error naming the file and the line for a name that is
    /// absolute, reaches out of INPUT (`..`), is listed twice, or (without `recursive`) is in a
    /// subfolder. Names in hidden folders are left out, as the walk leaves them out.
    init(_ url: URL, recursive: Bool) throws(CamStampError) {
        let data = try Self.read(url)
        let separator: UInt8 = data.contains(0) ? 0 : UInt8(ascii: "\n")
        var seen = Set<String>()
        var line = 0
        for raw in data.split(separator: separator, omittingEmptySubsequences: false) {
            line += 1
            var name = String(decoding: raw, as: UTF8.self)
            if separator != 0, name.hasSuffix("\r") { name.removeLast() }
            while name.hasPrefix("./") { name.removeFirst(2) }
            guard !name.isEmpty else { continue }
            let place = "\(url.path) \(separator == 0 ? "name" : "line") \(line)"
            let parts = name.split(separator: "/").map(String.init).filter { $0 != "." }
            guard !name.hasPrefix("/"), !parts.isEmpty, !parts.contains("..") else {
                throw .usage("\(place): '\(name)' is not a path inside the INPUT folder; list names relative to it")
            }
            if parts.dropLast().contains(where: { $0.hasPrefix(".") }) { continue }
            let folder = parts.dropLast().joined(separator: "/")
            guard recursive || folder.isEmpty else {
                throw .usage("\(place): '\(name)' is in a subfolder; add --recursive or list only the top folder")
            }
            let path = parts.joined(separator: "/")
            guard seen.insert(path).inserted else {
                throw .usage("\(place): '\(name)' is listed twice; list each file once")
            }
            guard names.count < Self.maxNames else {
                throw .usage("\(url.path): more than \(Self.maxNames) names; split the listing and the run")
            }
            names.append((path, folder, parts))
        }
        // The walk's order (each folder's names sorted, a subfolder where its name falls), so
        // `{counter}` numbers a photo as a walk of the same files would.
        names.sort { $0.parts.lexicographicallyPrecedes($1.parts) }
    }

    private static func read(_ url: URL) throws(CamStampError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .usage("--list \(url.path): cannot open the listing (make it with: find . -type f -print0 > FILE)")
        }
        defer { try? handle.close() }
        var info = stat()
        guard fstat(handle.fileDescriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw .usage("--list \(url.path): not a regular file; give a listing file")
        }
        guard info.st_size <= maxBytes else {
            throw .usage("--list \(url.path): larger than 2 GiB; split the listing and the run")
        }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .usage("--list \(url.path): cannot read the listing (\(error.localizedDescription))")
        }
    }
}

/// `--list` in the plan: the listed names as inputs.
extension BatchPlan {
    /// The files `--list` names under the one INPUT folder. Only this shard's are looked at: one
    /// that is not there or not a regular file is refused, as the walk would refuse it.
    /// `outputFolder` is OUTDIR's (device, inode): names under it are outputs, as in the walk.
    mutating func listedInputs(
        _ list: URL, _ options: BatchOptions, outputFolder: [UInt64]?
    ) throws(CamStampError) -> [Input] {
        guard options.inputs.count == 1, let root = options.inputs.first, PathKind(of: root) == .folder else {
            throw .usage("--list names files under one INPUT folder; give that folder alone")
        }
        let listing = try ListFile(list, recursive: options.recursive)
        var outputs = FoldersUnder(root: root, folder: outputFolder)
        var found: [Input] = []
        found.reserveCapacity(listing.names.count)
        for name in listing.names where !outputs.contains(name.folder) {
            let url = root.appendingPathComponent(name.path, isDirectory: false)
            guard Self.inShard(options.shard, name.folder, url) else {
                found.append((url, name.folder, false, true))
                continue
            }
            // A hidden file that is not a photo file is passed over, as the walk passes it over.
            let hidden = url.lastPathComponent.hasPrefix(".")
            switch PathKind(of: url) {
            case .missing where !hidden:
                refused.append((url, "listed in \(list.path) but not there; make the listing again"))
            case .folder where !hidden: refused.append((url, "a folder, and --list names files; list the files in it"))
            case .missing, .folder: continue
            default:
                if let reason = Self.notRegular(url) {
                    if !hidden { refused.append((url, reason)) }
                } else {
                    found.append((url, name.folder, false, false))
                }
            }
        }
        return found
    }

    /// Which folders under `root` (paths relative to it) are `folder` (a device and inode) or
    /// inside it: each folder is looked up once, however many names it holds.
    private struct FoldersUnder {
        let root: URL
        let folder: [UInt64]?
        private var known: [String: Bool] = ["": false]

        init(root: URL, folder: [UInt64]?) {
            self.root = root
            self.folder = folder
        }

        mutating func contains(_ relative: String) -> Bool {
            guard let folder else { return false }
            if let answer = known[relative] { return answer }
            var info = stat()
            let path = root.appendingPathComponent(relative, isDirectory: true).path
            let parent = relative.split(separator: "/").dropLast().joined(separator: "/")
            let answer =
                (stat(path, &info) == 0 && [UInt64(info.st_dev), UInt64(info.st_ino)] == folder) || contains(parent)
            known[relative] = answer
            return answer
        }
    }
}
