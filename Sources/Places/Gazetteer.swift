// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGeonames
import Foundation

/// A city of the gazetteer.
package struct City: Sendable, Equatable {
    package let name: String
    package let country: String
    package let latitude: Double
    package let longitude: Double

    /// `Paris, France`.
    package var label: String { country.isEmpty || country == name ? name : name + ", " + country }
}

/// The nearest city to a position, from the GeoNames cities that Debian's libgeonames carries
/// (compiled into the library: no file to find, no network). Loaded once, on first use, into a
/// grid of 1° cells, so that a lookup reads a few cells rather than every city.
package enum Gazetteer {
    /// The nearest city within `radius` metres of the position, with its distance; nil when none is.
    package static func nearest(
        latitude: Double, longitude: Double, within radius: Double = 100_000
    ) -> (city: City, distance: Double)? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        return index.nearest(latitude: latitude, longitude: longitude, within: radius)
    }

    /// How many cities there are (loads them).
    package static var count: Int { index.cities.count }

    /// Every city, for a test that checks the grid against reading them all.
    package static var allCities: [City] { index.cities }

    /// Swift runs a static's initialiser once, on first use, whatever the thread.
    private static let index = CityGrid(cities: loadCities())

    /// The library's cities, at most `limit` of them (the count comes from the data).
    private static func loadCities(limit: Int = 1_000_000) -> [City] {
        let count = min(Int(max(geonames_get_n_cities(), 0)), limit)
        var cities: [City] = []
        cities.reserveCapacity(count)
        for i in 0..<count {
            guard let city = geonames_get_city(gint(i)) else { continue }
            defer { geonames_city_free(city) }
            func text(_ value: UnsafePointer<gchar>?) -> String { value.map { String(cString: $0) } ?? "" }
            let latitude = geonames_city_get_latitude(city), longitude = geonames_city_get_longitude(city)
            guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { continue }
            cities.append(
                City(
                    name: text(geonames_city_get_name(city)), country: text(geonames_city_get_country(city)),
                    latitude: latitude, longitude: longitude))
        }
        return cities
    }
}

/// Cities by 1° cell of latitude and longitude.
package struct CityGrid: Sendable {
    let cities: [City]
    private let cells: [Int: [Int32]]
    static let earthRadius = 6_371_008.8

    init(cities: [City]) {
        self.cities = cities
        var cells: [Int: [Int32]] = [:]
        for (i, city) in cities.enumerated() {
            cells[Self.cell(Self.row(city.latitude), Self.column(city.longitude)), default: []].append(Int32(i))
        }
        self.cells = cells
    }

    private static func row(_ latitude: Double) -> Int { min(Int((latitude + 90).rounded(.down)), 179) }
    private static func column(_ longitude: Double) -> Int { min(Int((longitude + 180).rounded(.down)), 359) }
    private static func cell(_ row: Int, _ column: Int) -> Int { row * 360 + column }

    /// Searches the cells within an angle of the position, doubling the angle until the best city
    /// found lies inside it: every city nearer than that one is then in a cell that was read.
    func nearest(latitude: Double, longitude: Double, within radius: Double) -> (city: City, distance: Double)? {
        var best: (index: Int, distance: Double)?
        var degrees = 1.0
        let limit = min(radius / Self.earthRadius * 180 / .pi, 180)
        while true {
            for index in candidates(latitude: latitude, longitude: longitude, degrees: degrees) {
                let city = cities[Int(index)]
                let distance = Self.distance(latitude, longitude, city.latitude, city.longitude)
                if distance < (best?.distance ?? .infinity) { best = (Int(index), distance) }
            }
            let reach = degrees * .pi / 180 * Self.earthRadius
            if let best, best.distance <= reach {
                return best.distance <= radius ? (cities[best.index], best.distance) : nil
            }
            if degrees >= limit { return nil }
            degrees = min(degrees * 2, 180)
        }
    }

    /// The cities of every cell that a cap of `degrees` around the position touches.
    private func candidates(latitude: Double, longitude: Double, degrees: Double) -> [Int32] {
        let south = max(latitude - degrees, -90), north = min(latitude + degrees, 90)
        // The cap's longitude half-width (asin(sin d / cos φ)); all longitudes once it holds a pole.
        let span: Double
        let sine = sin(degrees * .pi / 180), cosine = cos(latitude * .pi / 180)
        if north >= 90 || south <= -90 || degrees >= 90 || sine >= cosine {
            span = 180
        } else {
            span = asin(sine / cosine) * 180 / .pi
        }
        var columns: [Int]
        if span >= 180 {
            columns = Array(0..<360)
        } else {
            let first = Int((longitude - span + 180).rounded(.down)),
                last = Int((longitude + span + 180).rounded(.down))
            columns = (first...last).map { (($0 % 360) + 360) % 360 }
        }
        var found: [Int32] = []
        for row in Self.row(south)...Self.row(north) {
            for column in columns { found += cells[Self.cell(row, column)] ?? [] }
        }
        return found
    }

    /// The great-circle distance in metres (haversine).
    package static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }
}
