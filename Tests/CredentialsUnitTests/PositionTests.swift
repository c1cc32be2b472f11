// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing

@testable import Credentials

/// A manifest's position, from the XMP GPSCoordinate text other writers put in `stds.exif`.
struct PositionTests {
    @Test(arguments: [
        ("39,21.102N", 90.0, 39.3517), ("74,26.5737W", 180.0, -74.442895), ("48,51,30.24N", 90.0, 48.8584),
        ("-33.8688", 90.0, -33.8688), ("0,0.0S", 90.0, 0.0),
    ])
    func aCoordinateIsRead(text: String, limit: Double, degrees: Double) throws {
        let value = try #require(Verification.coordinate(text, nil, limit: limit))
        #expect(abs(value - degrees) < 1e-9)
    }

    @Test(arguments: ["", "N", "abc", "1,,2N", "91,0N", "1,2,3,4N", "1,-2N", "nan", "inf", "39,21.102X"])
    func anythingElseIsNone(text: String) {
        #expect(Verification.coordinate(text, nil, limit: 90) == nil)
    }

    @Test func aNumberAndItsReferenceAreRead() {
        #expect(Verification.coordinate(NSNumber(value: 12.5), "S", limit: 90) == -12.5)
        #expect(Verification.coordinate(NSNumber(value: 181), nil, limit: 180) == nil)
        let manifest: [String: Any] = [
            "assertions": [
                ["label": "stds.exif", "data": ["exif:GPSLatitude": "39,21.102N"]],
                ["label": "c2pa.metadata", "data": ["exif:GPSLatitude": "10.5", "exif:GPSLongitude": "20,30W"]],
            ]
        ]
        #expect(Verification.position(manifest) == .init(latitude: 10.5, longitude: -20.5, from: "manifest"))
    }
}
