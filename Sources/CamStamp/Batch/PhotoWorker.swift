import Foundation
import Media
import Presets

/// One batch worker: its own decoders, encoders and marker (renderers are per thread), reused
/// for every photo it takes, so a photo costs decode + blend + encode and nothing else.
final class PhotoWorker {
    struct Settings {
        var quality: Int
        var maxSize: Int?
        var existing: ExistingFilePolicy
        var metadata: MetadataPolicy
        var templates: [String: PipelineTemplate]
        /// `--set-metadata`, expanded per photo.
        var setMetadata: MetadataTemplates
    }

    enum Status: String, Sendable { case marked, failed, skipped }

    struct Outcome: Sendable {
        var item: BatchPlan.Item
        var status: Status
        var reason: String?
        var milliseconds: Int
    }

    private let settings: Settings
    private let marker: Marker
    /// One pipeline per (input, output) kind pair met so far, each reused photo after photo.
    private var pipelines: [PipelineKey: PhotoPipeline] = [:]
    private struct PipelineKey: Hashable { var input: BatchPlan.Kind; var output: BatchPlan.Kind }

    init(settings: Settings, marker: Marker) {
        self.settings = settings
        self.marker = marker
    }

    func process(_ item: BatchPlan.Item) -> Outcome {
        let start = ContinuousClock.now
        func outcome(_ status: Status, _ reason: String? = nil) -> Outcome {
            let elapsed = ContinuousClock.now - start
            return Outcome(item: item, status: status, reason: reason,
                           milliseconds: Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
        }
        if FileManager.default.fileExists(atPath: item.output.path) {
            switch settings.existing {
            case .skip: return outcome(.skipped, "output exists")
            case .refuse: return outcome(.failed, "\(item.output.path) already exists; use --skip-existing to keep it or --overwrite to replace it")
            case .overwrite: break
            }
        }
        do throws(CamStampError) {
            let data = try read(item.input)
            let photo = try PhotoFacts(data, kind: item.kind)
            let captureDate = photo.dateTaken ?? modificationDate(item.input) ?? Date()
            let marker = self.marker
            // What a mark (and a --set-metadata value) can refer to, for this photo at this size.
            let context = { (width: Int, height: Int) -> TemplateContext in
                var context = marker.context(width: width, height: height, captureDate: captureDate)
                context.filename = item.input.lastPathComponent
                context.stem = item.input.deletingPathExtension().lastPathComponent
                context.counter = item.counter
                context.exif = photo.exifValues
                return context
            }
            // Runs on the pipeline's streaming thread, while this thread waits for the result.
            let encoded = try run(data, photo: photo, item: item) { (frame: VideoFrame) -> Error? in
                do { try marker.mark(frame, context: context(frame.width, frame.height)) } catch { return error }
                return nil
            }
            let size = outputSize(photo)
            let edits = settings.setMetadata.edits(for: context(size.width, size.height))
            let output = try photo.withMetadata(encoded, kind: item.outputKind, policy: settings.metadata, edits: edits)
            try write(output.data, to: item.output)
            return outcome(.marked, output.warnings.isEmpty ? nil : output.warnings.joined(separator: "; "))
        } catch {
            return outcome(.failed, error.message)
        }
    }

    private func read(_ url: URL) throws(CamStampError) -> Data {
        do { return try Data(contentsOf: url, options: .mappedIfSafe) } catch {
            throw .failure("cannot read the file (\((error as NSError).localizedFailureReason ?? error.localizedDescription))")
        }
    }

    private func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    /// Decodes, orients, scales, marks (through `mark`) and encodes one photo.
    private func run(_ data: Data, photo: PhotoFacts, item: BatchPlan.Item,
                     mark: @escaping (VideoFrame) -> Error?) throws(CamStampError) -> Data {
        let key = PipelineKey(input: item.kind, output: item.outputKind)
        let pipeline: PhotoPipeline
        if let existing = pipelines[key] {
            pipeline = existing
        } else {
            let name = item.outputKind == .jpeg ? "photo-jpeg" : "photo-png"
            guard let template = settings.templates[name] else { throw .failure("missing pipeline template \(name)") }
            pipeline = PhotoPipeline(template: template, input: item.kind == .jpeg ? .jpeg : .png,
                                     values: ["quality": .integer(settings.quality)])
            pipelines[key] = pipeline
        }
        let size = outputSize(photo)
        let upright = photo.orientation.swapsAxes ? (photo.height, photo.width) : (photo.width, photo.height)
        do {
            return try pipeline.process(data, orientation: photo.orientation, size: size == upright ? nil : size, mark: mark)
        } catch let error as CamStampError {
            throw error
        } catch {
            throw .failure("cannot decode, mark or encode the image: \(error)")
        }
    }

    /// The size of `photo`'s output: upright, and scaled down to --max-size.
    private func outputSize(_ photo: PhotoFacts) -> (width: Int, height: Int) {
        var upright = (width: photo.width, height: photo.height)
        if photo.orientation.swapsAxes { upright = (upright.height, upright.width) }
        guard let limit = settings.maxSize, max(upright.width, upright.height) > limit else { return upright }
        let scale = Double(limit) / Double(max(upright.width, upright.height))
        return (max(1, Int((Double(upright.width) * scale).rounded())), max(1, Int((Double(upright.height) * scale).rounded())))
    }

    /// Writes `data` to a temporary file beside `target` and moves it into place, so a crash or
    /// Ctrl-C never leaves half a photo; without --overwrite an existing file is never replaced.
    private func write(_ data: Data, to target: URL) throws(CamStampError) {
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).camstamp-\(UUID().uuidString.prefix(8)).part")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            TemporaryFiles.shared.add(temporary)
            defer { TemporaryFiles.shared.remove(temporary) }
            try data.write(to: temporary)
            if settings.existing == .overwrite {
                guard rename(temporary.path, target.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            } else {
                // link(2) fails if the target appeared meanwhile: nothing is replaced by surprise.
                defer { unlink(temporary.path) }
                guard link(temporary.path, target.path) == 0 else {
                    if errno == EEXIST { throw CamStampError.failure("\(target.path) already exists; use --skip-existing to keep it or --overwrite to replace it") }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
            }
        } catch let error as CamStampError {
            throw error
        } catch {
            throw .failure("cannot write \(target.path): \(error.localizedDescription)")
        }
    }
}
