// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
@testable import CamStamp
import Foundation
import Places
import Presets
import Testing
import TestSupport

/// The pieces of the position: `--gps`'s grammar, gpsd's TPV reports, the gazetteer, EXIF values.
@Suite struct LocationFeedTests {
    @Test(arguments: [
        ("auto", GPSOption.auto), ("off", .off), ("localhost", .server(host: "localhost", port: 2947)),
        ("127.0.0.1:29470", .server(host: "127.0.0.1", port: 29470)), ("[::1]:2948", .server(host: "::1", port: 2948)),
        ("gps.lan", .server(host: "gps.lan", port: 2947)),
    ])
    func gpsOptionParses(_ text: String, _ expected: GPSOption) throws {
        #expect(try GPSOption(parsing: text, option: "--gps") == expected)
    }

    @Test(arguments: ["", "host:", "host:0", "host:70000", ":2947", "a b:1", "[::1", "::1:2947"])
    func gpsOptionRefuses(_ text: String) {
        #expect(throws: OptionValueError.self) { try GPSOption(parsing: text, option: "--gps") }
    }

    @Test func aTPVReportIsAFixOrSaysThereIsNone() throws {
        func parse(_ line: String) -> GPSDClient.Report? { GPSDClient.parse(Data(line.utf8)) }
        let report = parse(
            #"{"class":"TPV","mode":3,"time":"2026-12-01T19:10:02.000Z","lat":48.85341,"lon":2.3488,"#
                + #""altHAE":82.0,"altMSL":35.0,"eph":4.5}"#)
        guard case .fix(let fix)? = report else {
            Issue.record("no fix in \(String(describing: report))")
            return
        }
        #expect(fix.latitude == 48.85341 && fix.longitude == 2.3488 && fix.altitude == 35 && fix.accuracy == 4.5)
        #expect(fix.time == Date(timeIntervalSince1970: 1_796_152_202))
        // A 2D fix has no altitude; epx/epy stand in for eph.
        guard case .fix(let flat)? = parse(#"{"class":"TPV","mode":2,"lat":1,"lon":2,"alt":9,"epx":3,"epy":7}"#) else {
            Issue.record("no 2D fix")
            return
        }
        #expect(flat.altitude == nil && flat.accuracy == 7)
        #expect(parse(#"{"class":"TPV","mode":1}"#) == .noFix)
        #expect(parse(#"{"class":"TPV","mode":3,"lat":91,"lon":2}"#) == .noFix)
        #expect(parse(#"{"class":"SKY","satellites":[]}"#) == nil)
        #expect(parse("not json") == nil)
    }

    @Test func theNearestCityIsFoundAndNoneFarOut() throws {
        #expect(Gazetteer.count > 20_000)
        let paris = try #require(Gazetteer.nearest(latitude: 48.85341, longitude: 2.3488))
        #expect(paris.city.label == "Paris, France" && paris.distance < 1)
        // The middle of the Pacific: no city within 100 km.
        #expect(Gazetteer.nearest(latitude: -30, longitude: -140) == nil)
        #expect(Gazetteer.nearest(latitude: .nan, longitude: 0) == nil)
    }

    /// The grid's answer is the brute force's, at random places, across the date line and near the poles.
    @Test func theGridFindsWhatReadingEveryCityFinds() throws {
        var random = SeededGenerator(state: 25)
        let cities = Gazetteer.allCities
        var points = (0..<150).map { _ in
            (Double.random(in: -70...75, using: &random), Double.random(in: -180...180, using: &random))
        }
        points += [(64.1, 179.9), (64.1, -179.9), (78.2, 15.6), (-77.8, 166.7), (89.9, 0)]
        for (latitude, longitude) in points {
            let grid = Gazetteer.nearest(latitude: latitude, longitude: longitude, within: 20_000_000)
            let brute = cities.min {
                CityGrid.distance(latitude, longitude, $0.latitude, $0.longitude)
                    < CityGrid.distance(latitude, longitude, $1.latitude, $1.longitude)
            }
            #expect(grid?.city == brute, "at \(latitude), \(longitude)")
        }
    }

    @Test func aPhotosGPSValuesAreItsPosition() {
        let fix = Geotag.fix(exif: ["GPSLatitude": "-33.856784", "GPSLongitude": "151.215297", "GPSAltitude": "-4.5"])
        #expect(fix?.latLonText == "33.85678° S, 151.21530° E" && fix?.altitude == -4.5)
        #expect(Geotag.fix(exif: ["GPSLatitude": "12"]) == nil)
        #expect(Geotag.fix(exif: ["GPSLatitude": "x", "GPSLongitude": "1"]) == nil)
    }
}
