// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGexiv2
import Foundation

/// The position a photo was taken at, written into its EXIF GPS directory by exiv2.
package enum PhotoGPS {
    /// Writes GPSLatitude/Ref, GPSLongitude/Ref, GPSAltitude/Ref (when known), GPSDateStamp and
    /// GPSTimeStamp (UTC, when known), GPSHPositioningError (when known) and GPSMapDatum into
    /// `file`, a JPEG or PNG that camstamp has just encoded (so it has no maker note to break).
    package static func write(
        latitude: Double, longitude: Double, altitude: Double?, accuracy: Double?, time: Date?, into file: URL
    ) throws(Exiv2Error) {
        try Exiv2.serialized { () throws(Exiv2Error) in
            guard let metadata = gexiv2_metadata_new() else { throw .initialization }
            defer { g_object_unref(metadata) }
            var error: UnsafeMutablePointer<GError>?
            guard gexiv2_metadata_open_path(metadata, file.path, &error) != 0 else {
                throw .open(code: Int(error?.pointee.code ?? 0), message: XMPDocument.take(error))
            }
            guard gexiv2_metadata_try_set_gps_info(metadata, longitude, latitude, altitude ?? 0, &error) != 0 else {
                throw .tag(key: "Exif.GPSInfo", message: XMPDocument.take(error))
            }
            if altitude == nil {
                for key in ["Exif.GPSInfo.GPSAltitude", "Exif.GPSInfo.GPSAltitudeRef"] {
                    _ = gexiv2_metadata_try_clear_tag(metadata, key, nil)
                }
            }
            var tags = ["Exif.GPSInfo.GPSMapDatum": "WGS-84"]
            if let time {
                var seconds = time_t(time.timeIntervalSince1970.rounded(.down))
                var utc = tm()
                gmtime_r(&seconds, &utc)
                tags["Exif.GPSInfo.GPSDateStamp"] = String(
                    format: "%04d:%02d:%02d", Int(utc.tm_year) + 1900, Int(utc.tm_mon) + 1, Int(utc.tm_mday))
                tags["Exif.GPSInfo.GPSTimeStamp"] = "\(utc.tm_hour)/1 \(utc.tm_min)/1 \(utc.tm_sec)/1"
            }
            if let accuracy, accuracy.isFinite, accuracy >= 0, accuracy < 1e6 {
                tags["Exif.GPSInfo.GPSHPositioningError"] = "\(Int((accuracy * 100).rounded()))/100"
            }
            for (key, value) in tags {
                guard gexiv2_metadata_try_set_tag_string(metadata, key, value, &error) != 0 else {
                    throw .tag(key: key, message: XMPDocument.take(error))
                }
            }
            guard gexiv2_metadata_save_file(metadata, file.path, &error) != 0 else {
                throw .serialize(XMPDocument.take(error))
            }
        }
    }
}
