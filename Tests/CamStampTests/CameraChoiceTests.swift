// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Presets
import Testing
import TestSupport
@testable import CamStamp

/// `--source NAME` and `--control` against a camera's list, with cameras described in the test
/// (there is no webcam here).
@Suite struct CameraChoiceTests {
    let cameras: [(name: String, path: String)] = [
        ("HD Webcam C525", "/dev/video0"),
        ("Integrated Camera: Integrated C", "/dev/video2"),
        ("USB2.0 HD UVC WebCam", "/dev/video4"),
    ]

    func failure(_ body: () throws(CamStampError) -> String) -> String? {
        do { return "chose \(try body())" } catch { return error.message }
    }

    @Test func theExactNameWinsThenAUniquePrefixThenAUniquePart() throws {
        #expect(try Capture.choose("HD Webcam C525", among: cameras) == "/dev/video0")
        #expect(try Capture.choose("hd webcam", among: cameras) == "/dev/video0")
        #expect(try Capture.choose("integrated", among: cameras) == "/dev/video2")
        #expect(try Capture.choose("UVC", among: cameras) == "/dev/video4")
        // An exact name is taken even when it is also the start of another camera's name.
        let twins = [(name: "Cam", path: "/dev/video0"), (name: "Cam Pro", path: "/dev/video1")]
        #expect(try Capture.choose("Cam", among: twins) == "/dev/video0")
        #expect(try Capture.choose("cam p", among: twins) == "/dev/video1")
    }

    @Test func anAmbiguousOrUnknownNameListsTheCameras() {
        #expect(
            failure { () throws(CamStampError) in try Capture.choose("webcam", among: cameras) }
                == "--source 'webcam': 2 cameras match: 'HD Webcam C525' (/dev/video0), 'USB2.0 HD UVC WebCam' (/dev/video4); give more of the name or the /dev/videoN path"
        )
        let same = [(name: "HD Webcam", path: "/dev/video0"), (name: "HD Webcam", path: "/dev/video2")]
        #expect(
            failure { () throws(CamStampError) in try Capture.choose("HD Webcam", among: same) }
                == "--source 'HD Webcam': 2 cameras match: 'HD Webcam' (/dev/video0), 'HD Webcam' (/dev/video2); give more of the name or the /dev/videoN path"
        )
        #expect(
            failure { () throws(CamStampError) in try Capture.choose("Logitech", among: cameras) }
                == "--source 'Logitech': no camera of that name; cameras: 'HD Webcam C525' (/dev/video0), 'Integrated Camera: Integrated C' (/dev/video2), 'USB2.0 HD UVC WebCam' (/dev/video4) (or `--source test`)"
        )
        #expect(
            failure { () throws(CamStampError) in try Capture.choose("Logitech", among: []) }
                == "--source 'Logitech': no camera found; connect one, or use `--source test` for the built-in test camera"
        )
    }

    // MARK: --control against the camera's controls

    let controls: [CameraControl] = [
        CameraControl(
            name: "brightness", label: "Brightness", id: 0x0098_0900, type: .integer, minimum: -64, maximum: 64,
            step: 1, defaultValue: 0, value: 0),
        CameraControl(
            name: "focus_automatic_continuous", label: "Focus, Automatic Continuous", id: 0x009a_090c,
            type: .boolean, minimum: 0, maximum: 1, step: 1, defaultValue: 1, value: 1),
        CameraControl(
            name: "power_line_frequency", label: "Power Line Frequency", id: 0x0098_0918, type: .menu,
            minimum: 0, maximum: 2, step: 1, defaultValue: 1, value: 1,
            menu: [.init(index: 0, name: "Disabled"), .init(index: 1, name: "50 Hz"), .init(index: 2, name: "60 Hz")]),
        CameraControl(
            name: "exposure_time_absolute", label: "Exposure Time, Absolute", id: 0x009a_0902, type: .integer,
            minimum: 3, maximum: 2047, step: 1, defaultValue: 250, value: 250, flags: [.inactive]),
        CameraControl(
            name: "pan_reset", label: "Pan, Reset", id: 0x009a_0906, type: .button, minimum: 0, maximum: 0,
            step: 0, defaultValue: 0, value: nil, flags: [.writeOnly]),
        CameraControl(
            name: "pixel_rate", label: "Pixel Rate", id: 0x009f_0902, type: .integer64, minimum: 0,
            maximum: 1 << 40, step: 1, defaultValue: 0, value: 0, flags: [.readOnly]),
    ]

    func check(_ texts: String...) -> String {
        do {
            let parsed = try texts.map { try ExtraControl(parsing: $0) }
            return ExtraControl.structure(try Capture.checked(parsed, against: controls, device: "/dev/video0"))
        } catch let error as CamStampError {
            return "usage: \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    @Test func goodSettingsBecomeOneStructure() {
        #expect(
            check("brightness=-10", "focus_automatic_continuous=false", "power_line_frequency=\"50 hz\"")
                == "controls, brightness=(int)-10, focus_automatic_continuous=(boolean)false, power_line_frequency=(int)1"
        )
        // 0/1 for an on/off control, a menu item by index, an inactive control (set for later).
        #expect(
            check(
                "focus_automatic_continuous=1", "power_line_frequency=2", "exposure_time_absolute=100", "pan_reset=true"
            )
                == "controls, focus_automatic_continuous=(boolean)true, power_line_frequency=(int)2, exposure_time_absolute=(int)100, pan_reset=(int)1"
        )
    }

    @Test func badSettingsSayWhatTheControlTakes() {
        #expect(
            check("brigthness=3")
                == "usage: --control brigthness: /dev/video0 has no such control; did you mean 'brightness'? (`camstamp devices` lists them)"
        )
        #expect(
            check("zoom_absolute=3")
                == "usage: --control zoom_absolute: /dev/video0 has no such control (`camstamp devices` lists them)")
        #expect(
            check("brightness=100")
                == "usage: --control brightness=100: out of range; brightness takes -64…64 (default 0)")
        #expect(
            check("brightness=true")
                == "usage: --control brightness=true: brightness takes a whole number, -64…64 (default 0)")
        #expect(
            check("focus_automatic_continuous=2")
                == "usage: --control focus_automatic_continuous=2: focus_automatic_continuous is on/off; give true or false"
        )
        #expect(
            check("power_line_frequency=\"70 Hz\"")
                == "usage: --control power_line_frequency=70 Hz: not one of power_line_frequency's items: 0 (Disabled), 1 (50 Hz), 2 (60 Hz)"
        )
        #expect(
            check("power_line_frequency=7")
                == "usage: --control power_line_frequency=7: not one of power_line_frequency's items: 0 (Disabled), 1 (50 Hz), 2 (60 Hz)"
        )
        #expect(check("pixel_rate=5") == "usage: --control pixel_rate: read-only on /dev/video0")
    }

    // MARK: -o names from templates

    @Test func aTemplateNameIsExpandedPerPhotoAndNeverReplacesAFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("{job}-{counter:3}.jpg")
        let destination = try StillDestination(output: output, format: .jpg, count: 2, variables: ["job": "A-113"])
        var context = TemplateContext(counter: 2, variables: ["job": "A-113"])
        let written = try destination.write(context: context) { (file: URL) throws(CamStampError) in
            FileManager.default.createFile(atPath: file.path, contents: Data("two".utf8))
        }
        #expect(written.lastPathComponent == "A-113-002.jpg")
        // The names a series would take are checked before anything is taken.
        do {
            _ = try StillDestination(output: output, format: .jpg, count: 2, variables: ["job": "A-113"])
            Issue.record("an existing A-113-002.jpg was not refused")
        } catch {
            #expect(error == .failure("\(folder.path)/A-113-002.jpg already exists; use --overwrite to replace it"))
        }
        context.counter = 2
        do {
            _ = try destination.write(context: context) { (file: URL) throws(CamStampError) in
                FileManager.default.createFile(atPath: file.path, contents: Data("again".utf8))
            }
            Issue.record("A-113-002.jpg was replaced")
        } catch {
            #expect(error.message.hasSuffix("A-113-002.jpg already exists; use --overwrite to replace it"))
        }
        #expect(try String(contentsOf: written, encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["A-113-002.jpg"])
    }

    @Test func namesThatCannotWorkAreRefusedFirst() {
        func refusal(_ name: String, count: Int = 1, variables: [String: String] = [:]) -> String? {
            do {
                _ = try StillDestination(
                    output: URL(fileURLWithPath: "/tmp/" + name), format: .jpg, count: count, variables: variables)
                return nil
            } catch { return error.message }
        }
        #expect(refusal("shot-{counter}.jpg", count: 3) == nil)
        // The frame size is not known before a frame: such a name is not judged empty early.
        #expect(refusal("{width}", count: 1) == nil)
        #expect(
            refusal("{date:%Y}/a.jpg")
                == "-o: only the file name can hold {…}; the folder /tmp/{date:%Y} is taken as written and does not exist"
        )
        #expect(
            refusal("shot.jpg", count: 3)
                == "-o shot.jpg names one file but --count 3 takes 3 photos; put {counter} in the name (e.g. shot-{counter:3}.jpg) or give a folder"
        )
        #expect(
            refusal("shot-{time}.jpg", count: 3)
                == "-o shot-{time}.jpg names one file but --count 3 takes 3 photos; put {counter} in the name (e.g. shot-{time}-{counter:3}.jpg) or give a folder"
        )
        #expect(
            refusal("{date:%D}.jpg")
                == "-o: '{date:%D}.jpg' gives '\(Self.today("MM/dd/yy")).jpg' for photo 1; a name must be non-empty and have no '/'"
        )
        #expect(
            refusal("{job}.jpg")
                == "-o: unknown variable '{job}'; define it in the preset's \"variables\" or pass --var job=VALUE")
    }

    static func today(_ format: String) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = format
        return formatter.string(from: Date())
    }
}
