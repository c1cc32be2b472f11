// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The location variables: `{lat}` `{lon}` `{latlon}` `{alt}` `{place}` `{gps:accuracy}`, each
/// with an optional fallback for when there is no fix (`{lat|no fix}`).
public enum LocationField: String, Hashable, Sendable, CaseIterable {
    /// `{lat}`: signed decimal degrees north.
    case latitude = "lat"
    /// `{lon}`: signed decimal degrees east.
    case longitude = "lon"
    /// `{latlon}`: `48.85837° N, 2.29448° E`.
    case latLon = "latlon"
    /// `{alt}`: whole metres above sea level.
    case altitude = "alt"
    /// `{place}`: the nearest city.
    case place
    /// `{gps:accuracy}`: the horizontal accuracy in whole metres.
    case accuracy = "gps:accuracy"

    /// The names a preset may not take for its own variables.
    static let names = ["lat", "lon", "latlon", "alt", "place", "gps"]

    func value(in context: TemplateContext) -> String {
        if self == .place { return context.place ?? "" }
        guard let fix = context.location else { return "" }
        switch self {
        case .latitude: return fix.latitudeText
        case .longitude: return fix.longitudeText
        case .latLon: return fix.latLonText
        case .altitude: return fix.altitudeText
        case .accuracy: return fix.accuracyText
        case .place: return ""
        }
    }

    /// The part for `body` (what is between the braces) when it names a location variable; nil
    /// when it names something else. `{gps:…}` of another field is an error.
    static func part(_ body: String) throws(PresetError) -> Template.Part? {
        let name: Substring, fallback: String?
        if let bar = body.firstIndex(of: "|") {
            name = body[..<bar]
            fallback = String(body[body.index(after: bar)...])
        } else {
            name = Substring(body)
            fallback = nil
        }
        if let field = LocationField(rawValue: String(name)) { return .location(field, fallback: fallback) }
        if name.hasPrefix("gps:") || name == "gps" {
            throw PresetError(
                .badTemplate, "unknown GPS variable '{\(body)}'",
                hint: "write {gps:accuracy}, or {lat}, {lon}, {latlon}, {alt}, {place}")
        }
        return nil
    }
}

extension Template {
    /// The location variables the text shows (a job then follows a position, or warns there is none).
    public var locationFields: Set<LocationField> {
        Set(parts.compactMap { if case .location(let field, _) = $0 { field } else { nil } })
    }
}

extension Preset {
    /// The location variables any mark shows.
    public var locationFields: Set<LocationField> {
        marks.reduce(into: []) { $0.formUnion($1.template?.locationFields ?? []) }
    }
}
