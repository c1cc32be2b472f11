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
    private var decoders: [BatchPlan.Kind: StillDecoder] = [:]
    private var encoders: [BatchPlan.Kind: StillEncoder] = [:]

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
            let frame = try decode(data, photo: photo, kind: item.kind)
            let context = marker.context(width: frame.width, height: frame.height,
                                         captureDate: photo.dateTaken ?? modificationDate(item.input) ?? Date())
            var filled = context
            filled.filename = item.input.lastPathComponent
            filled.stem = item.input.deletingPathExtension().lastPathComponent
            filled.counter = item.counter
            filled.exif = photo.exifValues
            try marker.mark(frame, context: filled)
            let encoded = try encode(frame, kind: item.outputKind)
            let output = try photo.withMetadata(encoded, kind: item.outputKind, policy: settings.metadata)
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

    private func decode(_ data: Data, photo: PhotoFacts, kind: BatchPlan.Kind) throws(CamStampError) -> VideoFrame {
        let decoder: StillDecoder
        if let existing = decoders[kind] {
            decoder = existing
        } else {
            decoder = StillDecoder(template: try template(kind == .jpeg ? "decode-jpeg" : "decode-png"),
                                   caps: kind == .jpeg ? "image/jpeg" : "image/png")
            decoders[kind] = decoder
        }
        var upright = (width: photo.width, height: photo.height)
        if photo.orientation.swapsAxes { upright = (upright.height, upright.width) }
        var size: (width: Int, height: Int)?
        if let limit = settings.maxSize, max(upright.width, upright.height) > limit {
            let scale = Double(limit) / Double(max(upright.width, upright.height))
            size = (max(1, Int((Double(upright.width) * scale).rounded())), max(1, Int((Double(upright.height) * scale).rounded())))
        }
        do {
            return try decoder.decode(data, orientation: photo.orientation, size: size)
        } catch {
            throw .failure("cannot decode the image: \(error)")
        }
    }

    private func encode(_ frame: VideoFrame, kind: BatchPlan.Kind) throws(CamStampError) -> Data {
        let encoder: StillEncoder
        if let existing = encoders[kind] {
            encoder = existing
        } else {
            encoder = StillEncoder(template: try template(kind == .jpeg ? "encode-jpeg" : "encode-png"),
                                   values: ["quality": .integer(settings.quality)])
            encoders[kind] = encoder
        }
        do { return try encoder.encode(frame) } catch { throw .failure("cannot encode: \(error)") }
    }

    private func template(_ name: String) throws(CamStampError) -> PipelineTemplate {
        guard let template = settings.templates[name] else { throw .failure("missing pipeline template \(name)") }
        return template
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

/// Temporary files being written right now, removed if the process is stopped hard.
final class TemporaryFiles: @unchecked Sendable {
    static let shared = TemporaryFiles()
    private let lock = NSLock()
    private var paths: Set<String> = []

    func add(_ url: URL) { _ = lock.withLock { paths.insert(url.path) } }
    func remove(_ url: URL) {
        lock.withLock { _ = paths.remove(url.path) }
        unlink(url.path)
    }

    /// Deletes every file still listed (on the way out after a second Ctrl-C).
    func removeAll() {
        lock.withLock {
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }
}
