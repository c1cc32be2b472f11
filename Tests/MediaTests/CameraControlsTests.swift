// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Glibc
import Testing
import TestSupport
@testable import Media

/// What can be checked of V4L2 controls without a camera: the ioctl error paths on devices that
/// are not cameras, v4l2src's spelling of control names, `--control` values read the way
/// GStreamer reads them, and the structure reaching v4l2src.
@Suite struct CameraControlsTests {
    @Test func aDeviceThatIsNotACameraIsRefusedByItsFirstIoctl() {
        // /dev/null opens fine and answers every ioctl with ENOTTY.
        #expect(throws: MediaError.device(path: "/dev/null", operation: "VIDIOC_QUERYCAP", code: ENOTTY)) {
            try CameraControls.list(device: "/dev/null")
        }
        #expect(
            MediaError.device(path: "/dev/null", operation: "VIDIOC_QUERYCAP", code: ENOTTY).description
                == "/dev/null: not a V4L2 camera (VIDIOC_QUERYCAP: Inappropriate ioctl for device)")
    }

    @Test func aRegularFileIsNotACameraEither() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "camstamp-notacamera-\(UUID().uuidString)")
        try Data("not a camera".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: MediaError.device(path: file.path, operation: "VIDIOC_QUERYCAP", code: ENOTTY)) {
            try CameraControls.list(device: file.path)
        }
    }

    @Test func aMissingDeviceIsNotFound() {
        do {
            _ = try CameraControls.list(device: "/dev/video-camstamp-none")
            Issue.record("listed a device that does not exist")
        } catch {
            #expect(error == .device(path: "/dev/video-camstamp-none", operation: "open", code: ENOENT))
            #expect(error.resourceProblem == .notFound)
        }
    }

    @Test func openErrnosAreToldApart() {
        #expect(MediaError.device(path: "/dev/video0", operation: "open", code: EBUSY).resourceProblem == .busy)
        #expect(
            MediaError.device(path: "/dev/video0", operation: "open", code: EACCES).resourceProblem == .permissionDenied
        )
        #expect(MediaError.device(path: "/dev/video0", operation: "open", code: ENODEV).resourceProblem == .notFound)
    }

    @Test func theErrnoInV4l2srcsDebugTextNamesTheProblem() {
        // v4l2src posts a failed open(2) as OPEN_READ_WRITE (7) whatever the errno; only the
        // debug text (GST_ERROR_SYSTEM) says which.
        func openFailure(_ debug: String) -> MediaError {
            .stream(
                element: "/GstPipeline:pipeline0/GstV4l2Src:camera", domain: "gst-resource-error-quark", code: 7,
                message: "Could not open device '/dev/video0' for reading and writing.",
                debug: "../sys/v4l2/v4l2_calls.c(637): gst_v4l2_open (): /GstPipeline:pipeline0/GstV4l2Src:camera:\n"
                    + debug)
        }
        #expect(openFailure("system error: Device or resource busy").resourceProblem == .busy)
        #expect(openFailure("system error: Permission denied").resourceProblem == .permissionDenied)
        #expect(openFailure("system error: No such file or directory").resourceProblem == .notFound)
        #expect(openFailure("system error: Input/output error").resourceProblem == .other)
        // The same failure while starting comes as a state change with the debug text's cause.
        #expect(
            MediaError.stateChange(
                element: "camera", message: "Could not open device",
                debug: "system error: Device or resource busy"
            ).resourceProblem == .busy)
        // S_FMT/REQBUFS on a busy camera: v4l2src posts RESOURCE BUSY (4) itself.
        #expect(
            MediaError.stream(
                element: "camera", domain: "gst-resource-error-quark", code: 4,
                message: "Device '/dev/video0' is busy", debug: nil
            ).resourceProblem == .busy)
    }

    @Test func namesAreSpelledAsV4l2srcSpellsThem() {
        #expect(CameraControl.extraControlsName("Brightness") == "brightness")
        #expect(CameraControl.extraControlsName("Exposure (Absolute)") == "exposure_absolute")
        #expect(CameraControl.extraControlsName("White Balance Temperature, Auto") == "white_balance_temperature_auto")
        #expect(CameraControl.extraControlsName("Focus, Automatic Continuous") == "focus_automatic_continuous")
        #expect(CameraControl.extraControlsName("Power Line Frequency") == "power_line_frequency")
        #expect(CameraControl.extraControlsName("  (Pan) ") == "pan")
    }

    @Test func valuesAreReadAsGStreamerReadsThem() throws {
        #expect(try ExtraControl(parsing: "brightness=-10") == ExtraControl(name: "brightness", value: .integer(-10)))
        #expect(try ExtraControl(parsing: "focus_automatic_continuous=false").value == .boolean(false))
        #expect(try ExtraControl(parsing: "backlight_compensation=true").value == .boolean(true))
        #expect(try ExtraControl(parsing: "power_line_frequency=\"50 Hz\"").value == .text("50 Hz"))
        #expect(try ExtraControl(parsing: "power_line_frequency=Disabled").value == .text("Disabled"))
        for bad in [
            "brightness=1 0", "brightness=0.5", "brightness=1/2", "brightness=99999999999", "brightness=\"open",
        ] {
            #expect(throws: ExtraControlError.self, "\(bad)") { try ExtraControl(parsing: bad) }
        }
        #expect(
            throws: ExtraControlError(
                "--control brightness=1,contrast=2: one control per --control; repeat the option for more")
        ) {
            try ExtraControl(parsing: "brightness=1,contrast=2")
        }
        #expect(
            throws: ExtraControlError(
                "--control: 'Brightness' is not a control name as v4l2src spells it; did you mean 'brightness'? (`camstamp devices` lists them)"
            )
        ) {
            try ExtraControl(parsing: "Brightness=3")
        }
    }

    @Test(.runsGStreamerElements) func theStructureReachesV4l2srcWhole() throws {
        let controls = [
            ExtraControl(name: "brightness", value: .integer(-10)),
            ExtraControl(name: "focus_automatic_continuous", value: .boolean(false)),
            ExtraControl(name: "power_line_frequency", value: .integer(1)),
        ]
        let text = ExtraControl.structure(controls)
        #expect(
            text
                == "controls, brightness=(int)-10, focus_automatic_continuous=(boolean)false, power_line_frequency=(int)1"
        )
        // Setting the property does not open the device: no camera needed.
        let pipeline = try Pipeline("v4l2src name=camera device=/dev/null ! fakesink")
        let camera = try pipeline.element(named: "camera")
        try camera.set("extra-controls", structure: text)
        let stored = try #require(camera.string("extra-controls"))
        #expect(
            stored.contains("brightness=(int)-10") && stored.contains("focus_automatic_continuous=(boolean)false")
                && stored.contains("power_line_frequency=(int)1"), "\(stored)")
        #expect(throws: MediaError.self) { try camera.set("extra-controls", structure: "controls, brightness=1 0") }
    }

    @Test(.runsGStreamerElements) func gstUtilSetObjectArgDropsAMalformedStructureWithoutAWord() throws {
        // Why --control values go through gst_structure_from_string first: this is silent.
        let pipeline = try Pipeline("v4l2src name=camera device=/dev/null ! fakesink")
        let camera = try pipeline.element(named: "camera")
        try camera.set("extra-controls", "controls, brightness=1 0")
        #expect(camera.string("extra-controls").map { $0.contains("brightness") } != true)
    }
}
