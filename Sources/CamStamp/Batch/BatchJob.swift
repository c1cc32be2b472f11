// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Dispatch
import Foundation
internal import Media
import Presets
import Synchronization

/// `camstamp batch`: marks every photo of files and folders into an output folder, in parallel,
/// never touching the inputs, and accounts for every file.
public struct BatchJob {
    /// What to stamp, where, and how.
    public let options: BatchOptions
    /// Where the shipped presets, fonts and pipelines are; nil when they were not found.
    public let resources: Resources?

    /// A batch of `options`, using the shipped files in `resources`.
    public init(options: BatchOptions, resources: Resources? = Resources.locate()) {
        self.options = options
        self.resources = resources
    }

    /// What a batch did, counted per photo.
    public struct Summary: Sendable, Equatable {
        /// Photos stamped and written.
        public var marked = 0
        /// Photos that could not be stamped (each reported on its own line).
        public var failed = 0
        /// Files skipped: not photos, or outputs that exist under `--skip-existing`.
        public var skipped = 0
        /// Photos not reached because the batch was interrupted.
        public var notStarted = 0
        /// Photos whose output was there already, without `--skip-existing` or `--overwrite`:
        /// not written, said once for the batch (a rerun into the same folder), not failures.
        public var existing = 0
        /// Whether all that was asked was done: nothing failed, nothing was left for existing.
        public var succeeded: Bool { failed == 0 && existing == 0 }
        /// The summary line: `N marked, N failed, N skipped` (`, N existing` when there were some).
        public var line: String {
            "\(marked) marked, \(failed) failed, \(skipped) skipped" + (existing > 0 ? ", \(existing) existing" : "")
        }
        /// Said once when outputs were there already, instead of a failure per photo.
        public var existingLine: String? {
            guard existing > 0 else { return nil }
            return "\(existing) output\(existing == 1 ? " exists" : "s exist"), nothing replaced: "
                + "`--skip-existing` continues a batch, `--overwrite` replaces"
        }
        /// The line after Ctrl-C: what was done, and what was not.
        public var interruptedLine: String { "interrupted: \(line), \(notStarted) not started" }
    }

    /// Runs the batch. On `report`: the JSON lines or the dry-run listing as results; each failed
    /// photo as an error, warnings and the summary line (not after Ctrl-C: the error says it);
    /// the progress line.
    public func run(interrupts: Interrupts? = nil, report: JobOutput = .silent) throws(CamStampError) -> Summary {
        // From here a first Ctrl-C or SIGTERM asks this job to finish its outputs.
        interrupts?.finishesOnRequest()
        // The signer is made beside the presets and fonts; checked before any folder is made.
        let signing = options.signing.map { (signing) in
            Background { () throws(CamStampError) in try ContentCredentials(signing) }
        }
        let (preset, variables) = try Verbosity.timed("presets and fonts") { () throws(CamStampError) in
            try MarkSetup.preset(
                names: options.presets, text: options.text, variables: options.variables, resources: resources)
        }
        try ContentCredentials.checkProof(preset, signing: options.signing)
        let metadataTemplates = try MetadataTemplates(
            options.setMetadata,
            variables: Set(preset.variables(overriddenBy: variables).keys))
        let plan = try Verbosity.timed("listing the inputs") { () throws(CamStampError) in
            try BatchPlan(options: options)
        }
        Verbosity.log(
            "\(plan.items.count) photo\(plan.items.count == 1 ? "" : "s") to stamp"
                + (options.shard.map { " (shard \($0))" } ?? ""))
        let credentials = try signing?.value()
        try prepareOutputFolders(plan)
        if options.dryRun { return dryRun(plan, report: report) }
        var settings = try photoSettings(metadataTemplates)
        settings.credentials = credentials
        let reporter = reporter(for: plan, report: report)
        return try work(
            plan, preset: preset, variables: variables, settings: settings, reporter: reporter,
            interrupts: interrupts)
    }

    /// `--dry-run`: each input and the output it would get, said as a result; nothing written.
    private func dryRun(_ plan: BatchPlan, report: JobOutput) -> Summary {
        for item in plan.clips.map({ (input: $0.input, output: $0.output) })
            + plan.items.map({ (input: $0.input, output: $0.output) })
        {
            var note = ""
            if FileManager.default.fileExists(atPath: item.output.path) {
                note =
                    switch options.existing {
                    case .skip: "  (exists: would skip)"
                    case .overwrite: "  (exists: would replace)"
                    case .refuse: "  (exists: would refuse)"
                    }
            }
            report.result("\(item.input.path) -> \(item.output.path)\(note)")
        }
        var summary = Summary()
        summary.skipped = plan.skipped.count
        return summary
    }

    /// What every photo worker is set up with: the options and the photo pipeline templates.
    private func photoSettings(_ metadataTemplates: MetadataTemplates) throws(CamStampError) -> PhotoWorker.Settings {
        var templates: [String: PipelineTemplate] = [:]
        for name in ["photo-jpeg", "photo-png", "photo-webp", "photo-raw"] {
            templates[name] = try Templates.load(nil, builtIn: name, resources: resources)
        }
        return PhotoWorker.Settings(
            quality: options.quality, maxSize: options.maxSize,
            maxDecodedPixels: options.maxDecodedPixels,
            keepsFormat: options.format == .keep, strict: options.strict,
            existing: options.existing, metadata: options.metadata, templates: templates,
            setMetadata: metadataTemplates, reencode: options.reencode, invisible: options.invisible,
            toStandardOutput: options.single == .standardOutput, metadataEdit: metadataEdit)
    }

    /// What the manifest says of the metadata edits: GPS removed, values written.
    private var metadataEdit: String? {
        var edits: [String] = []
        if options.metadata == .stripGPS { edits.append("GPS location removed") }
        if !options.setMetadata.isEmpty {
            edits.append("set " + options.setMetadata.map(\.key.rawValue).joined(separator: ", "))
        }
        return edits.isEmpty ? nil : edits.joined(separator: "; ")
    }

    /// The batch's reporter, told first of the files the plan skipped or refused; the photo
    /// options that clips do not take are said here too.
    private func reporter(for plan: BatchPlan, report: JobOutput) -> BatchReporter {
        let reporter = BatchReporter(
            total: plan.items.count + plan.clips.count, clips: plan.clips.count, json: options.json, report: report)
        reporter.shard = options.shard
        for url in plan.skipped { reporter.skippedFile(url) }
        for (url, reason) in plan.refused { reporter.failedFile(url, reason: reason) }
        // Photo options a clip does not take: said once, not ignored in silence.
        let photoOnly = [
            options.maxSize.map { _ in "--max-size" }, options.quality.map { _ in "--quality" },
            options.format == .keep ? nil : "--format",
        ].compactMap { $0 }
        if !plan.clips.isEmpty, !photoOnly.isEmpty {
            report.warning(
                "\(photoOnly.joined(separator: ", ")) \(photoOnly.count == 1 ? "applies" : "apply") to photos only: "
                    + "clips keep their size and container (--video-codec chooses their codec)")
        }
        return reporter
    }

    /// Runs the plan's clips, then its photos, on `options.jobs` workers until all are done or
    /// an interrupt; the summary, or the interruption with it.
    private func work(
        _ plan: BatchPlan, preset: Preset, variables: [String: String], settings: PhotoWorker.Settings,
        reporter: BatchReporter, interrupts: Interrupts?
    ) throws(CamStampError) -> Summary {
        let next = Atomic<Int>(0)
        let items = plan.items
        let clips = plan.clips
        let workers = max(1, min(options.jobs, items.count + clips.count))
        let clipSettings =
            clips.isEmpty
            ? nil
            : ClipWorker.Settings(
                existing: options.existing, template: try Templates.load(nil, builtIn: "clip", resources: resources),
                threads: workers == 1 ? 0 : max(1, ProcessInfo.processInfo.activeProcessorCount / workers),
                metadata: options.metadata, credentials: settings.credentials, metadataEdit: settings.metadataEdit)
        // Each worker takes the next file when it is free: memory is bounded by the number of
        // workers (one photo or clip each), whatever the folder size. Clips come first: the
        // longest jobs start early, and the photos fill in around them.
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let marker = FrameMarker(preset: preset, variables: variables)
            let worker = PhotoWorker(settings: settings, marker: marker)
            let clipWorker = clipSettings.map { ClipWorker(settings: $0, marker: marker) }
            while interrupts?.isRequested != true {
                let index = next.add(1, ordering: .relaxed).oldValue
                if index < clips.count, let clipWorker {
                    let clip = clips[index]
                    if let outcome = clipWorker.process(
                        clip, progress: { reporter.clipProgress(clip, fraction: $0, speed: $1) },
                        cancelled: { interrupts?.isRequested == true })
                    {
                        reporter.record(outcome)
                    }
                    continue
                }
                guard index - clips.count < items.count else { break }
                reporter.record(worker.process(items[index - clips.count]))
            }
        }
        let interrupted = interrupts?.isRequested == true
        let summary = reporter.finish(interrupted: interrupted)
        if interrupted { throw .init(.interrupted, summary.interruptedLine) }
        return summary
    }

    /// The output folder, created and checked; in it and in each subfolder the batch writes to,
    /// the temporary files of killed runs are removed.
    private func prepareOutputFolders(_ plan: BatchPlan) throws(CamStampError) {
        let folder = options.outputFolder
        if options.single == .standardOutput { return }
        // A device or a FIFO is neither written into nor replaced by a photo.
        var named = folder
        if case .file(let file) = options.single { named = file }
        if let kind = StillDestination.nonRegularKind(named) {
            throw .usage(
                "-o: \(named.path) is \(kind), not a folder or a regular file; "
                    + "name a folder, a new photo file (one.jpg) or - for stdout")
        }
        guard !options.dryRun else {
            if PathKind(of: folder) == .file { throw .usage(StillDestination.notAFolder(folder, option: "-o")) }
            return
        }
        try StillDestination.prepareFolder(folder, option: "-o", create: true)
        for subfolder in Set(
            (plan.items.map(\.output) + plan.clips.map(\.output)).map {
                $0.deletingLastPathComponent().standardizedFileURL.path
            })
        {
            TemporaryFiles.removeStale(in: URL(fileURLWithPath: subfolder))
        }
    }
}
