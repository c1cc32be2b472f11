// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

/// `{lat}`, `{lon}`, `{latlon}`, `{alt}`, `{gps:accuracy}`, `{place}` and their fallbacks.
@Suite struct LocationTemplateTests {
    func expand(_ text: String, _ fix: GeoFix?, place: String? = nil) throws -> String {
        var context = TemplateContext()
        context.location = fix
        context.place = place
        return try Template(text, variables: []).expand(context, escapingMarkup: false)
    }

    @Test func aFixReadsAsSignedDecimalsAndHemispheres() throws {
        let paris = GeoFix(latitude: 48.858370, longitude: 2.294481, altitude: 35.4, accuracy: 4.6)
        #expect(try expand("{lat} {lon}", paris) == "48.85837 2.29448")
        #expect(try expand("{latlon}", paris) == "48.85837° N, 2.29448° E")
        #expect(try expand("{alt} m ±{gps:accuracy} m", paris) == "35 m ±5 m")
        let lima = GeoFix(latitude: -12.04318, longitude: -77.02824)
        #expect(try expand("{lat},{lon} {latlon}", lima) == "-12.04318,-77.02824 12.04318° S, 77.02824° W")
        // No altitude or accuracy: empty, or the fallback.
        #expect(try expand("[{alt}][{gps:accuracy|?}]", lima) == "[][?]")
        // A hair south of the equator is not "-0.00000".
        #expect(try expand("{lat}", GeoFix(latitude: -0.000001, longitude: 0)) == "0.00000")
    }

    @Test func withoutAFixTheVariablesAreEmptyOrTheirFallback() throws {
        #expect(try expand("[{lat}][{latlon}][{place}]", nil) == "[][][]")
        #expect(try expand("{lat|no fix} {place|somewhere}", nil) == "no fix somewhere")
        #expect(try expand("{latlon|}", nil).isEmpty)
        let fix = GeoFix(latitude: 1, longitude: 2)
        #expect(try expand("{place|far from any city}", fix) == "far from any city")
        #expect(try expand("{place|?}", fix, place: "Paris, France") == "Paris, France")
    }

    @Test func outOfRangeOrNonFiniteCoordinatesAreNoFix() {
        #expect(GeoFix(latitude: 90.01, longitude: 0) == nil)
        #expect(GeoFix(latitude: 0, longitude: -180.01) == nil)
        #expect(GeoFix(latitude: .nan, longitude: 0) == nil)
        #expect(GeoFix(latitude: 0, longitude: .infinity) == nil)
        #expect(GeoFix(latitude: 0, longitude: 0, altitude: .nan, accuracy: -1)?.altitude == nil)
    }

    @Test func theNamesAreBuiltInAndAWrongGPSVariableIsAnError() {
        for name in ["lat", "lon", "latlon", "alt", "place", "gps"] {
            #expect(Template.builtinNames.contains(name), "\(name)")
        }
        do {
            _ = try Template("{gps:speed}", variables: [])
            Issue.record("{gps:speed} was accepted")
        } catch {
            #expect(error.description.contains("unknown GPS variable '{gps:speed}'"), "\(error)")
        }
        #expect(throws: PresetError.self) { try Template("{latitude}", variables: []) }
    }

    @Test func aPresetKnowsWhichLocationVariablesItShows() throws {
        let template = try Template("{date} {latlon|?} {place}", variables: [])
        #expect(template.locationFields == [.latLon, .place])
        #expect(try Template("{exif:GPSLatitude|x}", variables: []).locationFields.isEmpty)
    }
}
