// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// Where a still goes: `-o photo.jpg`, a name from a template (`-o shots/{date:%H%M%S}-{counter}.jpg`,
/// expanded for each photo like batch's `--name`), a folder (`-o shots/`, default the current
/// folder) where photos are named `camstamp-YYYYMMDD-HHMMSS-N.jpg`, or stdout (`-o -`). Written to
/// a temporary file in the same folder and moved into place, so a crash never leaves half a photo;
/// an existing file is never replaced unless `overwrite`.
struct StillDestination {
    let folder: URL
    /// The file name when one was given; nil means a generated name in `folder`.
    let fileName: String?
    /// `fileName` as a template, when it has `{…}` in it.
    let nameTemplate: Template?
    let format: ImageFormat
    /// Generated names start with this.
    let prefix: String
    let overwrite: Bool
    /// The encoded photo goes to stdout; `folder` is then only where it is encoded.
    let toStandardOutput: Bool

    /// Resolves `output` (nil: the current folder). A folder is created when missing; a file's
    /// folder must exist. Checks what can be checked before anything is taken: that the folder
    /// can be written, and that a named file does not exist yet unless `overwrite`.
    ///
    /// `count` photos will be written: a single file name cannot hold more than one, so it must be
    /// a template with `{counter}`. A template is checked now against `variables` (the `--var` and
    /// preset variable names); when its names do not depend on the time, the `count` names it
    /// gives are checked now too (distinct, and not existing unless `overwrite`).
    init(
        output: URL?, format: ImageFormat, prefix: String = "camstamp", overwrite: Bool = false,
        toStandardOutput: Bool = false, count: Int = 1, variables: [String: String] = [:]
    ) throws(CamStampError) {
        self.format = format
        self.prefix = prefix
        self.overwrite = overwrite
        self.toStandardOutput = toStandardOutput
        let fileManager = FileManager.default
        if toStandardOutput {
            guard count == 1 else {
                throw .usage(
                    "-o - writes one photo to stdout; for --count \(count) give a folder or a name with {counter}")
            }
            folder = fileManager.temporaryDirectory
            fileName = nil
            nameTemplate = nil
            return
        }
        let output = output ?? URL(fileURLWithPath: fileManager.currentDirectoryPath)
        let kind = PathKind(of: output)
        if kind == .folder || output.hasDirectoryPath {
            folder = output
            fileName = nil
            nameTemplate = nil
            try Self.prepareFolder(folder, option: "-o", create: true)
            return
        }
        folder = output.deletingLastPathComponent()
        let name = output.lastPathComponent
        fileName = name
        if name.contains("{") || name.contains("}") {
            let template: Template
            do { template = try Template(name, variables: Set(variables.keys)) } catch {
                throw .usage("-o: \(error.description)")
            }
            nameTemplate = template
        } else {
            nameTemplate = nil
        }
        if count > 1 && !(nameTemplate?.source.contains("{counter") ?? false) {
            throw .usage(
                "-o \(name) names one file but --count \(count) takes \(count) photos; put {counter} in the name "
                    + "(e.g. \((name as NSString).deletingPathExtension)-{counter:3}.\(format.fileExtension)) or give a folder"
            )
        }
        if folder.path.contains("{") && !fileManager.fileExists(atPath: folder.path) {
            throw .usage(
                "-o: only the file name can hold {…}; the folder \(folder.path) is taken as written and does not exist")
        }
        try Self.prepareFolder(folder, option: "-o", create: false)
        guard let nameTemplate else {
            if kind != .missing && !overwrite { throw Self.exists(output) }
            return
        }
        // Names are checked with the time now (and a stand-in frame size): a strftime format that
        // gives a '/' fails here, before anything is taken, not after the first photo.
        var seen: Set<String> = []
        for counter in 1...count {
            let context = TemplateContext(counter: counter, width: 1, height: 1, variables: variables)
            let expanded = try expandedName(from: nameTemplate, context, photo: counter)
            if !nameTemplate.dependsOnTime && !nameTemplate.dependsOnSize {
                guard seen.insert(expanded).inserted else {
                    throw .usage(
                        "-o \(name): photos 1 to \(count) would not all get different names; put {counter} in the name")
                }
                let target = folder.appendingPathComponent(expanded)
                if !overwrite && fileManager.fileExists(atPath: target.path) { throw Self.exists(target) }
            }
        }
    }

    /// One photo's name from the `-o` template, under batch's `--name` rule.
    private func expandedName(
        from template: Template, _ context: TemplateContext, photo: Int
    ) throws(CamStampError) -> String {
        try OutputName.checked(
            template.expand(context, escapingMarkup: false), pattern: template.source,
            option: "-o", for: "photo \(photo)")
    }

    /// What `option` says of a path that is there but is no folder: a file, or what else it is
    /// (`/dev/zero` is a character device, `-o` names a folder, a photo file or -).
    static func notAFolder(_ path: URL, option: String) -> String {
        guard let kind = nonRegularKind(path) else { return "\(option): \(path.path) is a file, not a folder" }
        return "\(option): \(path.path) is \(kind), not a folder or a regular file; name a folder to write into"
    }

    /// What a path is when it is there but is neither a regular file nor a folder ("a character
    /// device", "a FIFO (named pipe)"); nil otherwise. Links are followed.
    static func nonRegularKind(_ path: URL) -> String? {
        var info = stat()
        guard stat(path.path, &info) == 0, let kind = RegularFile.kind(ofMode: info.st_mode), kind != "a folder" else {
            return nil
        }
        return kind
    }

    /// Makes `folder` ready to be written into: created when missing and `create` (else a usage
    /// error naming `option`), writable (else a failure), and rid of the temporary files that
    /// killed camstamp runs left there.
    static func prepareFolder(_ folder: URL, option: String, create: Bool) throws(CamStampError) {
        let kind = PathKind(of: folder)
        if kind == .missing && create {
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw .failure(
                    "\(folder.path): cannot create the folder (\((error as NSError).localizedFailureReason ?? error.localizedDescription)); choose another with \(option)"
                )
            }
        } else if kind == .missing {
            throw .usage("\(option): folder \(folder.path) does not exist; create it first")
        } else if kind == .file {
            throw .usage(notAFolder(folder, option: option))
        }
        guard access(folder.path, W_OK) == 0 else {
            let reason = errno == EROFS ? "read-only file system" : "permission denied"
            throw .failure("\(folder.path): cannot write here (\(reason)); choose another folder with \(option)")
        }
        TemporaryFiles.removeStale(in: folder)
    }

    /// Encodes `frame` into `file` through a still template (`still-jpeg`, `still-png` or the
    /// user's): the one way shoot, the camera and stream's snapshots write a photo. Throws what
    /// GStreamer said; the caller words it for its option.
    static func encode(_ frame: VideoFrame, template: PipelineTemplate, quality: Int, to file: URL) throws {
        let description = try template.render(["quality": .integer(quality), "location": .quoted(file.path)])
        Verbosity.log("encoder pipeline: \(description)")
        let output = try FrameOutput(pipeline: Pipeline(description))
        try output.start()
        frame.setTimestamps(pts: 0, duration: nil)
        try output.push(frame)
        try output.finish()
    }

    static func exists(_ file: URL) -> CamStampError {
        .failure("\(file.path) already exists; use --overwrite to replace it")
    }

    /// Runs `produce` on a temporary path in the target folder, then moves the result into place
    /// (or copies it to stdout). Returns where it went (`/dev/stdout` for stdout). `context` fills
    /// in a template name (its counter is the photo's number).
    func write(
        context: TemplateContext = TemplateContext(counter: 1),
        _ produce: (URL) throws(CamStampError) -> Void
    ) throws(CamStampError) -> URL {
        let temporary = TemporaryFiles.temporaryURL(in: folder, for: format.fileExtension)
        // Removed however this ends, a second Ctrl-C included.
        TemporaryFiles.shared.add(temporary)
        defer { TemporaryFiles.shared.remove(temporary) }
        try produce(temporary)
        if toStandardOutput {
            do {
                let data = try Data(contentsOf: temporary)
                try FileHandle.standardOutput.write(contentsOf: data)
            } catch {
                throw .failure("stdout: cannot write the photo (\(error.localizedDescription))")
            }
            return URL(fileURLWithPath: "/dev/stdout")
        }
        if let nameTemplate {
            let target = folder.appendingPathComponent(
                try expandedName(from: nameTemplate, context, photo: context.counter ?? 1))
            try TemporaryFiles.moveIntoPlace(temporary, at: target, replacing: overwrite, exists: Self.exists(target))
            return target
        }
        if let fileName {
            let target = folder.appendingPathComponent(fileName)
            try TemporaryFiles.moveIntoPlace(temporary, at: target, replacing: overwrite, exists: Self.exists(target))
            return target
        }
        // A generated name: the next free one, never replacing a file that appeared meanwhile.
        var counter = 1
        let stamp = Self.stamp(Date())
        while true {
            let target = folder.appendingPathComponent("\(prefix)-\(stamp)-\(counter).\(format.fileExtension)")
            do {
                try TemporaryFiles.moveIntoPlace(temporary, at: target, replacing: false, exists: Self.exists(target))
                return target
            } catch  where FileManager.default.fileExists(atPath: target.path) {
                counter += 1
            }
        }
    }

    /// `YYYYMMDD-HHMMSS` in local time.
    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}

/// The rule for a file name made from a template (batch's `--name`, shoot's `-o`): not empty,
/// and no `/` (a name never reaches into another folder).
enum OutputName {
    /// `name` when it is usable; otherwise a usage error naming `option`, the `pattern` and what
    /// it was expanded `for`.
    static func checked(
        _ name: String, pattern: String, option: String, for what: String
    ) throws(CamStampError) -> String {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw .usage(
                "\(option): '\(pattern)' gives '\(name)' for \(what); a name must be non-empty and have no '/'")
        }
        return name
    }
}

/// The one rule for whether two outputs (or an output and an input) are one file: the path with
/// its folder's links resolved (`./`, `..`, a linked folder), then the file's own link followed
/// when it is one. A file not there yet keeps its name: only its folder can be resolved.
enum OutputPath {
    static func resolved(_ url: URL) -> String {
        var resolver = Resolver()
        return resolver.resolved(url)
    }

    /// `resolved` for many files: each folder's links are resolved once (a batch of 100,000
    /// photos in 100 folders costs 100 resolutions and one `lstat` a file, not a walk of every
    /// path's components each time).
    struct Resolver {
        private var folders: [String: String] = [:]

        /// `url` resolved; with `followingLink` false, only its folder (the file is not looked at).
        mutating func resolved(_ url: URL, followingLink: Bool = true) -> String {
            let standard = url.standardizedFileURL
            let folderURL = standard.deletingLastPathComponent()
            let folder: String
            if let known = folders[folderURL.path] {
                folder = known
            } else {
                folder = folderURL.resolvingSymlinksInPath().path
                folders[folderURL.path] = folder
            }
            let name = standard.lastPathComponent
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            // Only a file that is a link needs more than its folder's resolution.
            guard followingLink, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
    }
}
