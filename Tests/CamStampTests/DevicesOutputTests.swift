// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
@testable import CamStamp

/// How `camstamp devices` prints a camera's controls (no camera here: controls made in the test).
@Suite struct DevicesOutputTests {
    @Test func eachControlIsOneLineWithItsRangeDefaultAndValue() {
        let brightness = CameraControl(
            name: "brightness", label: "Brightness", id: 0x0098_0900, type: .integer,
            minimum: -64, maximum: 64, step: 1, defaultValue: 0, value: 12)
        #expect(CameraListing.controlLine(brightness) == "brightness  integer -64…64, default 0, now 12")
        let exposure = CameraControl(
            name: "exposure_time_absolute", label: "Exposure Time, Absolute", id: 0x009a_0902,
            type: .integer, minimum: 3, maximum: 2047, step: 2, defaultValue: 250, value: 250,
            flags: [.inactive, .volatile])
        #expect(
            CameraListing.controlLine(exposure)
                == "exposure_time_absolute  integer 3…2047 (step 2), default 250, now 250 (inactive)")
        let focus = CameraControl(
            name: "focus_automatic_continuous", label: "Focus, Automatic Continuous", id: 0x009a_090c,
            type: .boolean, minimum: 0, maximum: 1, step: 1, defaultValue: 1, value: 0)
        #expect(CameraListing.controlLine(focus) == "focus_automatic_continuous  boolean, default true, now false")
        let power = CameraControl(
            name: "power_line_frequency", label: "Power Line Frequency", id: 0x0098_0918, type: .menu,
            minimum: 0, maximum: 2, step: 1, defaultValue: 1, value: 2,
            menu: [.init(index: 0, name: "Disabled"), .init(index: 1, name: "50 Hz"), .init(index: 2, name: "60 Hz")])
        #expect(
            CameraListing.controlLine(power)
                == "power_line_frequency  menu 0 Disabled | 1 50 Hz | 2 60 Hz, default 1, now 2")
        let button = CameraControl(
            name: "pan_reset", label: "Pan, Reset", id: 0x009a_0906, type: .button, minimum: 0,
            maximum: 0, step: 0, defaultValue: 0, value: nil, flags: [.writeOnly])
        #expect(CameraListing.controlLine(button) == "pan_reset  button (write-only)")
    }

    @Test func jsonNamesEveryFieldTheWebPageReads() throws {
        let power = CameraControl(
            name: "power_line_frequency", label: "Power Line Frequency", id: 9963800, type: .menu,
            minimum: 0, maximum: 1, step: 1, defaultValue: 1, value: 0,
            menu: [.init(index: 0, name: "Disabled"), .init(index: 1, name: "50 Hz")], flags: [.inactive])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(
            String(decoding: try encoder.encode(power), as: UTF8.self)
                == #"{"defaultValue":1,"flags":["inactive"],"id":9963800,"label":"Power Line Frequency","maximum":1,"menu":[{"index":0,"name":"Disabled"},{"index":1,"name":"50 Hz"}],"minimum":0,"name":"power_line_frequency","step":1,"type":"menu","value":0}"#
        )
    }
}
