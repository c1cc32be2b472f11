// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import PhotoMetadata
internal import Places
import Presets

/// The position in and out of photos: written into a photo shoot or camera takes, read from a
/// photo batch stamps.
enum Geotag {
    /// Writes `fix` into the EXIF GPS directory of the photo just encoded at `file`.
    static func write(_ fix: GeoFix, into file: URL) throws(CamStampError) {
        do {
            try PhotoGPS.write(
                latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitude, accuracy: fix.accuracy,
                time: fix.time ?? Date(), into: file)
        } catch {
            throw .failure("photo: the GPS position could not be written: \(error)")
        }
    }

    /// The position a photo's EXIF holds (its `{exif:…}` values: GPSLatitude and GPSLongitude as
    /// signed decimals, GPSAltitude, GPSHPositioningError); nil when it has none.
    static func fix(exif values: [String: String]) -> GeoFix? {
        guard let latitude = values["GPSLatitude"].flatMap(Double.init),
            let longitude = values["GPSLongitude"].flatMap(Double.init)
        else { return nil }
        return GeoFix(
            latitude: latitude, longitude: longitude, altitude: values["GPSAltitude"].flatMap(Double.init),
            accuracy: values["GPSHPositioningError"].flatMap(Double.init))
    }

    /// The nearest city's label (`Paris, France`), for `{place}`.
    static func place(near fix: GeoFix) -> String? {
        Gazetteer.nearest(latitude: fix.latitude, longitude: fix.longitude)?.city.label
    }
}

extension TemplateContext {
    /// A photo's own position from its EXIF, and the place when `fields` shows it (batch).
    mutating func takeLocation(fromEXIF values: [String: String], fields: Set<LocationField>) {
        guard !fields.isEmpty, let fix = Geotag.fix(exif: values) else { return }
        location = fix
        if fields.contains(.place) { place = Geotag.place(near: fix) }
    }
}
