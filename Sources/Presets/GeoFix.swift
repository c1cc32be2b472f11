// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A position on the Earth (WGS 84), as a GPS receiver, a browser or a photo's EXIF gives it.
public struct GeoFix: Hashable, Sendable {
    /// Degrees north (negative south), −90…90.
    public var latitude: Double
    /// Degrees east (negative west), −180…180.
    public var longitude: Double
    /// Metres above sea level, when known.
    public var altitude: Double?
    /// The horizontal accuracy in metres (the radius the position is likely within), when known.
    public var accuracy: Double?
    /// When the position was measured (the receiver's UTC time), when known.
    public var time: Date?

    /// A fix; nil when a coordinate is not finite or out of range (nothing a receiver can mean).
    public init?(
        latitude: Double, longitude: Double, altitude: Double? = nil, accuracy: Double? = nil, time: Date? = nil
    ) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude.flatMap { $0.isFinite ? $0 : nil }
        self.accuracy = accuracy.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        self.time = time
    }

    /// `{lat}`: signed decimal degrees, 5 places (about a metre).
    public var latitudeText: String { Self.decimal(latitude) }
    /// `{lon}`: signed decimal degrees, 5 places.
    public var longitudeText: String { Self.decimal(longitude) }

    /// `{latlon}`: `48.85837° N, 2.29448° E`.
    public var latLonText: String {
        Self.decimal(abs(latitude)) + "° " + (latitude < 0 ? "S" : "N") + ", " + Self.decimal(abs(longitude))
            + "° " + (longitude < 0 ? "W" : "E")
    }

    /// `{alt}`: whole metres, empty when unknown.
    public var altitudeText: String { altitude.map(Self.metres) ?? "" }
    /// `{gps:accuracy}`: whole metres, empty when unknown.
    public var accuracyText: String { accuracy.map(Self.metres) ?? "" }

    private static func decimal(_ value: Double) -> String {
        let text = String(format: "%.5f", value)
        // -0.000001 must not read "-0.00000".
        return text == "-0.00000" ? "0.00000" : text
    }

    private static func metres(_ value: Double) -> String {
        let rounded = value.rounded()
        return abs(rounded) < 1e9 ? String(Int(rounded)) : ""
    }
}
