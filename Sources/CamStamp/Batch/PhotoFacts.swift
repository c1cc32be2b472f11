import Foundation
import Media

/// What the batch reads from a photo's bytes: size, orientation, date taken, EXIF values for
/// `{exif:TAG}`, and the metadata to carry into the output.
struct PhotoFacts {
    var width: Int
    var height: Int
    var orientation: Orientation
    var dateTaken: Date?
    var exifValues: [String: String]

    init(_ data: Data, kind: BatchPlan.Kind) throws(CamStampError) {
        let probe: PhotoProbe
        do { probe = try PhotoProbe(data, kind: kind) } catch { throw .failure(error.description) }
        width = probe.width
        height = probe.height
        // Not read yet: EXIF orientation, date and values arrive with the PhotoMetadata module.
        orientation = .normal
        dateTaken = nil
        exifValues = [:]
    }

    /// `encoded` with this photo's metadata added as `policy` says. Not yet: returns `encoded` as is.
    func withMetadata(_ encoded: Data, kind: BatchPlan.Kind, width: Int, height: Int, policy: MetadataPolicy) -> Data {
        encoded
    }
}
