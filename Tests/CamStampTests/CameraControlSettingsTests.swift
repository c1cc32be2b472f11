// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import CamStamp

/// The page's `controls` in `POST /api/settings`, checked against the camera's controls before
/// anything reaches v4l2src (a real camera is needed to see them applied).
@Suite struct CameraControlSettingsTests {
    static let camera: (name: String, controls: [ViewfinderControl], reason: String?) = (
        "HD Webcam",
        [
            ViewfinderControl(name: "brightness", type: "integer", min: -64, max: 64, step: 1, default: 0, value: 0),
            ViewfinderControl(
                name: "focus_automatic_continuous", type: "boolean", min: 0, max: 1, step: 1, default: 1, value: 1),
            ViewfinderControl(
                name: "power_line_frequency", type: "menu", min: 0, max: 2, step: 1, default: 1, value: 1,
                menu: [
                    .init(value: 0, label: "Disabled"), .init(value: 1, label: "50 Hz"),
                    .init(value: 2, label: "60 Hz"),
                ]),
            ViewfinderControl(
                name: "focus_absolute", type: "integer", min: 0, max: 250, step: 5, default: 0, value: 0,
                available: false, reason: "set by an automatic control that is on"),
        ], nil
    )

    func check(_ json: String) throws(CamStampError) -> [String: Int] {
        let object = try! JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        return try CameraAPI.checkedControls(object, against: Self.camera)
    }

    @Test func valuesWithinTheCamerasRangesAreTaken() throws {
        #expect(
            try check(#"{"brightness": -10, "focus_automatic_continuous": false, "power_line_frequency": 2}"#)
                == ["brightness": -10, "focus_automatic_continuous": 0, "power_line_frequency": 2])
    }

    @Test(arguments: [
        (#"{"contrast": 1}"#, "settings: cannot set control 'contrast': HD Webcam has no control 'contrast'"),
        (#"{"brightness": 65}"#, "settings: control 'brightness': 65 is outside -64…64"),
        (#"{"brightness": 1.5}"#, "settings: control 'brightness' takes a whole number"),
        (#"{"brightness": "10"}"#, "settings: control 'brightness' takes a whole number"),
        (
            #"{"power_line_frequency": 3}"#,
            "settings: control 'power_line_frequency': 3 is not one of its items (0 Disabled, 1 50 Hz, 2 60 Hz)"
        ),
        (
            #"{"focus_absolute": 30}"#,
            "settings: cannot set control 'focus_absolute': set by an automatic control that is on"
        ),
    ])
    func whatTheCameraCannotTakeIsRefusedInWords(json: String, message: String) {
        #expect(throws: CamStampError.usage(message)) { try check(json) }
    }

    @Test func aCameraWithoutControlsSaysWhy() {
        let test: (name: String, controls: [ViewfinderControl], reason: String?) = (
            "Test camera", [], "the test camera has no controls"
        )
        let object: [String: Any] = ["brightness": 1]
        #expect(
            throws: CamStampError.usage("settings: cannot set control 'brightness': the test camera has no controls")
        ) {
            try CameraAPI.checkedControls(object, against: test)
        }
    }
}
