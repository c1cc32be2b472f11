import Foundation
import Media
import PhotoMetadata

/// What the batch reads from a photo's bytes before decoding: that it is a complete JPEG or PNG,
/// its stored size, its orientation, when it was taken, `{exif:TAG}` values, and the metadata to
/// carry into the output.
struct PhotoFacts {
    var width: Int
    var height: Int
    var orientation: Orientation
    var dateTaken: Date?
    var exifValues: [String: String]
    private var metadata: ImageMetadata
    /// Why the photo's metadata could not be read (the photo is still marked, without it).
    private(set) var metadataProblem: String?

    init(_ data: Data, kind: BatchPlan.Kind) throws(CamStampError) {
        guard !data.isEmpty else { throw .failure("empty file") }
        switch kind {
        case .jpeg:
            let structure: JPEGStructure
            do { structure = try JPEGStructure(parsing: data) } catch {
                throw .failure(error == .notJPEG ? "not a JPEG image (the file does not start like one)" : error.description)
            }
            guard let size = structure.frameSize, size.width > 0, size.height > 0 else {
                throw .failure("damaged JPEG (no picture size found)")
            }
            // The entropy-coded data runs to EOI; a file cut short has none. (Some cameras append
            // a few bytes after EOI, so look near the end rather than at the last two bytes.)
            let tail = data.suffix(min(4096, data.count - structure.scanOffset))
            guard zip(tail, tail.dropFirst()).contains(where: { $0 == 0xFF && $1 == 0xD9 }) else {
                throw .failure("truncated image (the file ends before the picture does)")
            }
            (width, height) = (size.width, size.height)
            do { metadata = try ImageMetadata(jpeg: data) } catch {
                metadata = ImageMetadata()
                metadataProblem = error.description
            }
        case .png:
            let signature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            guard data.count >= 33, data.prefix(8) == signature else {
                throw .failure(signature.starts(with: data.prefix(8)) ? "truncated image (the file ends before the picture does)"
                                                                      : "not a PNG image (the file does not start like one)")
            }
            guard data.suffix(12).prefix(8).suffix(4) == Data("IEND".utf8) else {
                throw .failure("truncated image (the file ends before the picture does)")
            }
            do { metadata = try ImageMetadata(png: data) } catch { throw .failure(error.description) }
            let header = [UInt8](data[data.startIndex + 16..<data.startIndex + 24])
            width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        }
        orientation = metadata.orientation.flatMap(Orientation.init(rawValue:)) ?? .normal
        dateTaken = metadata.dateTimeOriginal()
        exifValues = metadata.exifValues
    }

    /// `encoded` (a bare JPEG or PNG from the encoder) with this photo's metadata as `policy`
    /// says: EXIF with Orientation 1, the new size and no thumbnail; ICC; XMP; IPTC; with `edits`
    /// (--set-metadata) written. Returns the file and what had to be left out.
    func withMetadata(_ encoded: Data, kind: BatchPlan.Kind, policy: MetadataPolicy,
                      edits: MetadataEdits = MetadataEdits()) throws(CamStampError) -> (data: Data, warnings: [String]) {
        let carried: PhotoMetadata.MetadataPolicy = switch policy {
        case .keep: .keep
        case .stripGPS: .stripGPS
        case .stripAll: .stripAll
        }
        do {
            let output = kind == .jpeg ? try metadata.insert(into: encoded, policy: carried, edits: edits)
                                       : try metadata.insert(intoPNG: encoded, policy: carried, edits: edits)
            return (output.data, output.warnings.map(\.description) + (metadataProblem.map { ["metadata not carried: \($0)"] } ?? []))
        } catch {
            throw .failure("cannot add the metadata: \(error)")
        }
    }
}
