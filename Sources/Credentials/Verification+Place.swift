// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Where a manifest says its asset was made: the EXIF GPS fields of an `stds.exif` or
/// `c2pa.metadata` assertion (`exif:GPSLatitude` and `exif:GPSLongitude`, as XMP writes them,
/// `48,51.5022N`, or signed decimals), which a camera or a phone app records.
extension Verification {
    /// A position as a manifest or a photo's EXIF states it, in signed decimal degrees.
    package struct Position: Sendable, Equatable {
        package var latitude: Double
        package var longitude: Double
        /// `manifest` (an assertion of the active manifest, covered by its signature) or `exif`
        /// (the file's own tags, covered by the hash when the file is signed).
        package var from: String

        package init(latitude: Double, longitude: Double, from: String) {
            self.latitude = latitude
            self.longitude = longitude
            self.from = from
        }
    }

    /// The active manifest's position, if one of its metadata assertions states one.
    static func position(_ manifest: [String: Any]) -> Position? {
        for assertion in manifest["assertions"] as? [[String: Any]] ?? [] {
            guard let label = assertion["label"] as? String, label == "stds.exif" || label.hasPrefix("c2pa.metadata"),
                let data = assertion["data"] as? [String: Any],
                let latitude = coordinate(data["exif:GPSLatitude"], data["exif:GPSLatitudeRef"], limit: 90),
                let longitude = coordinate(data["exif:GPSLongitude"], data["exif:GPSLongitudeRef"], limit: 180)
            else { continue }
            return Position(latitude: latitude, longitude: longitude, from: "manifest")
        }
        return nil
    }

    /// `DDD,MM.mmk` or `DDD,MM,SSk` (XMP's GPSCoordinate, k one of NSEW), or a number; a
    /// separate reference (`S`, `W`) turns a positive number. Nil when it is none of these or
    /// lies beyond ±`limit`.
    static func coordinate(_ value: Any?, _ reference: Any?, limit: Double) -> Double? {
        var degrees: Double?
        var negative = ["S", "W"].contains((reference as? String)?.uppercased() ?? "")
        if let number = value as? NSNumber {
            degrees = number.doubleValue
        } else if var text = (value as? String)?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            if let last = text.last, "NSEWnsew".contains(last) {
                negative = "SWsw".contains(last)
                text.removeLast()
            }
            let pieces = text.split(separator: ",", omittingEmptySubsequences: false)
            let parts = pieces.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            // Degrees, minutes, seconds: each a number, only a lone one signed.
            guard (1...3).contains(parts.count), parts.count == pieces.count,
                parts.count == 1 || parts.allSatisfy({ $0 >= 0 })
            else { return nil }
            degrees = parts.enumerated().reduce(0) { $0 + $1.element / pow(60, Double($1.offset)) }
        }
        guard var result = degrees, result.isFinite else { return nil }
        if negative && result > 0 { result = -result }
        return abs(result) <= limit ? result : nil
    }
}
