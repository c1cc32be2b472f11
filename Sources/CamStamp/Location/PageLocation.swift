// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

extension CameraAPI {
    /// `"location": {"lat": …, "lon": …, "accuracy": …, "alt": …}` of `POST /api/settings`: the
    /// browser's position (Geolocation API), taken when gpsd has no fix. `null` forgets it.
    static func checkedLocation(_ value: SettingsValue) throws(CamStampError) -> GeoFix? {
        let shape =
            "settings: 'location' must be {\"lat\": -90…90, \"lon\": -180…180, \"accuracy\": metres, "
            + "\"alt\": metres} (accuracy and alt optional) or null"
        if value == .null { return nil }
        guard case .object(let fields) = value else { throw .usage(shape) }
        let known: Set<String> = ["lat", "lon", "accuracy", "alt"]
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw .usage("settings: 'location': unknown key '\(unknown)'; \(shape.dropFirst(22))")
        }
        func number(_ key: String, in range: ClosedRange<Double>, required: Bool) throws(CamStampError) -> Double? {
            switch fields[key] {
            case nil, .null?:
                if required { throw .usage("settings: 'location': '\(key)' is missing; \(shape.dropFirst(22))") }
                return nil
            case .number(let number)? where number.isFinite && range.contains(number): return number
            default:
                throw .usage(
                    "settings: 'location': '\(key)' must be a number from \(range.lowerBound.plainText) "
                        + "to \(range.upperBound.plainText)")
            }
        }
        let latitude = try number("lat", in: -90...90, required: true)!
        let longitude = try number("lon", in: -180...180, required: true)!
        let accuracy = try number("accuracy", in: 0...10_000_000, required: false)
        let altitude = try number("alt", in: -12_000...100_000, required: false)
        return GeoFix(latitude: latitude, longitude: longitude, altitude: altitude, accuracy: accuracy, time: Date())
    }
}

extension Double {
    fileprivate var plainText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
