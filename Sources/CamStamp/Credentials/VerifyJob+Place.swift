// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Credentials
import Foundation
import Presets

/// Where a checked file was made: the manifest's position, or the file's own EXIF GPS tags, as
/// `{latlon}` and `{place}` write them.
extension VerifyJob {
    /// The position the GPS tags of the photo `data` hold; nil for none or a file that is no photo.
    static func exifPosition(_ data: Data) -> Verification.Position? {
        guard ImageFormat.sniff(data.prefix(64)) != nil, let photo = try? PhotoFacts(data),
            let fix = Geotag.fix(exif: photo.exifValues)
        else { return nil }
        return Verification.Position(latitude: fix.latitude, longitude: fix.longitude, from: "exif")
    }

    /// `{"latitude", "longitude", "latlon", "place", "from"}`; nil for a position out of range.
    static func json(_ position: Verification.Position) -> JSONValue? {
        guard let fix = GeoFix(latitude: position.latitude, longitude: position.longitude) else { return nil }
        var object: [String: JSONValue] = [
            "latitude": .number(fix.latitude), "longitude": .number(fix.longitude),
            "latlon": .string(fix.latLonText), "from": .string(position.from),
        ]
        object["place"] = Geotag.place(near: fix).map { .string($0) }
        return .object(object)
    }

    /// `at 48.85840° N, 2.29450° E (Paris, France), as its manifest says`.
    static func words(_ position: Verification.Position) -> String? {
        guard let fix = GeoFix(latitude: position.latitude, longitude: position.longitude) else { return nil }
        let place = Geotag.place(near: fix).map { " (\($0))" } ?? ""
        let from = position.from == "manifest" ? "its manifest" : "its EXIF"
        return "at \(fix.latLonText)\(place), as \(from) says"
    }
}
