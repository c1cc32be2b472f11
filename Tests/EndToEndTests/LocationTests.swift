// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

/// gpsd (Debian's, started by gpsfake) replaying an NMEA log on 127.0.0.1 and a free port, never
/// the system's gpsd. Stopped by `stop()`.
final class FakeGPS {
    let port: Int
    private let process: BackgroundProcess
    /// GeoNames' point for Paris: the gazetteer's nearest city to it is Paris itself.
    static let latitude = 48.85341, longitude = 2.34880, altitude = 35.0

    init(in folder: URL) throws {
        let log = folder.appendingPathComponent("paris.nmea")
        try Data(Self.log().utf8).write(to: log)
        port = try freePort()
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"
        // -n: gpsd reads the log before a client comes; -c: a sentence every 0.05 s, over and over.
        // The child inherits the test thread's blocked signals: gpsfake would not hear SIGINT, and
        // its gpsd would outlive it. python3 clears the mask before it becomes gpsfake.
        let unblocked =
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
            + "os.execv(sys.argv[1], sys.argv[1:])"
        process = try BackgroundProcess(
            "/usr/bin/python3",
            ["-c", unblocked, "/usr/bin/gpsfake", "-n", "-q", "-c", "0.05", "-P", String(port), log.path],
            environment: .inherited(["PATH": path]), stdout: .discard, stderr: .capture)
        guard waitForListener(port: port, timeout: 20) else {
            let said = process.stop(SIGINT).stderr
            throw ToolFailure("gpsfake did not listen on 127.0.0.1:\(port): \(said)")
        }
        try waitForFix()
    }

    /// Waits (bounded) until gpsd gives a client a fix from the log: a gpsd that listens may not
    /// have read it yet on a loaded machine, and the tool gives it only its 3 s to settle (a user's
    /// gpsd has been running). A client as gpsd's own tools are: WATCH, then TPV reports.
    private func waitForFix(timeout: TimeInterval = 30) throws {
        let client = """
            import json, socket, sys, time
            deadline = time.monotonic() + float(sys.argv[2])
            with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5) as s:
                s.sendall(b'?WATCH={"enable":true,"json":true}\\n')
                lines = s.makefile("r")
                while time.monotonic() < deadline:
                    line = lines.readline()
                    if not line: break
                    report = json.loads(line)
                    if report.get("class") == "TPV" and report.get("mode", 0) >= 2: sys.exit(0)
            sys.exit(1)
            """
        let result = try runProcess(
            "/usr/bin/python3", ["-c", client, String(port), String(timeout)], timeout: timeout + 10)
        guard result.status == 0 else {
            let said = process.stop(SIGINT).stderr
            throw ToolFailure("gpsd on 127.0.0.1:\(port) gave no fix in \(Int(timeout)) s: \(result.stderr) \(said)")
        }
    }

    /// SIGINT: gpsfake stops its gpsd on the way out.
    func stop() { _ = process.stop(SIGINT) }

    static let installed =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake")
        && FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd")

    /// GGA (position, altitude), GSA (a 3D fix) and RMC (date) a second apart, with checksums.
    static func log() -> String {
        func sentence(_ body: String) -> String {
            let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return "$" + body + "*" + String(format: "%02X", sum) + "\r\n"
        }
        // 48.85341° = 48° 51.2046', 2.34880° = 2° 20.9280'.
        return (0..<10).map { second in
            let time = String(format: "1910%02d.00", second)
            return sentence("GPGGA,\(time),4851.2046,N,00220.9280,E,1,08,0.9,35.0,M,47.0,M,,")
                + sentence("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.5,0.9,1.2")
                + sentence("GPRMC,\(time),A,4851.2046,N,00220.9280,E,0.0,0.0,011226,,,A")
        }.joined()
    }
}

@Suite(.serialized) struct LocationTests {
    static let mark = "48.85341° N, 2.34880° E Paris, France"

    /// A photo of the flat test camera, marked with `arguments` (`--text` and the rest).
    private func shoot(_ arguments: [String], in folder: URL, name: String) throws -> (file: URL, stderr: String) {
        let template = try writeSolidCameraTemplate(in: folder)
        let file = folder.appendingPathComponent(name)
        let result = try camstamp(
            ["shoot", "--source", "test", "--pipeline", template.path, "--size", "640x360", "-o", file.path]
                + arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return (file, result.stderr)
    }

    /// GPSLatitude, GPSLongitude and GPSAltitude as exiftool reads them (signed decimals), and
    /// GPSLatitudeRef.
    private func gpsTags(_ file: URL) throws -> (numbers: [Double], reference: String) {
        let lines = try exiftool(
            ["-n", "-s", "-s", "-s", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-GPSLatitudeRef"], file
        ).split(separator: "\n")
        return (lines.prefix(3).compactMap { Double($0) }, lines.count == 4 ? String(lines[3]) : "")
    }

    @Test(.enabled(if: FakeGPS.installed, "gpsfake and gpsd (gpsd, gpsd-clients) are not installed: make deps"))
    func gpsdsPositionIsInTheMarkAndTheEXIF() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gps = try FakeGPS(in: folder)
        defer { gps.stop() }
        let shot = try shoot(
            ["--gps", "127.0.0.1:\(gps.port)", "--text", "{latlon} {place}"], in: folder, name: "gps.jpg")
        // EXIF keeps seconds of arc as a fraction: a ten-millionth of a degree is a centimetre.
        let tags = try gpsTags(shot.file)
        let expected = [FakeGPS.latitude, FakeGPS.longitude, FakeGPS.altitude]
        #expect(tags.numbers.count == 3 && zip(tags.numbers, expected).allSatisfy { abs($0 - $1) < 1e-7 }, "\(tags)")
        #expect(tags.reference == "N")
        #expect(!shot.stderr.contains("gps"), "\(shot.stderr)")
        // The mark is the text the position reads as: the same pixels as that text typed.
        let typed = try shoot(["--gps", "off", "--text", Self.mark], in: folder, name: "typed.jpg")
        let luma = try lumaPlane(decodeImage(shot.file))
        #expect(changedBounds(luma, background: luma[0][0], tolerance: 40) != nil, "no mark was drawn")
        #expect(luma == (try lumaPlane(decodeImage(typed.file))), "the mark is not '\(Self.mark)'")
        #expect(try exiftool(["-gps:all"], typed.file).isEmpty)

        let stripped = try shoot(
            ["--gps", "127.0.0.1:\(gps.port)", "--strip-gps", "--text", "{latlon} {place}"], in: folder,
            name: "stripped.jpg")
        #expect(try exiftool(["-gps:all"], stripped.file).isEmpty)
        #expect(try lumaPlane(decodeImage(stripped.file)) == luma, "--strip-gps changed the mark")
    }

    @Test func withoutGPSDTheFallbackIsDrawnAndOneWarningSaysSo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try freePort()
        let shot = try shoot(
            ["--gps", "127.0.0.1:\(port)", "--count", "3", "--text", "{lat|no fix}{place}"], in: folder,
            name: "p{counter}.jpg")
        let warnings = shot.stderr.split(separator: "\n").filter { $0.hasPrefix("camstamp: gps: no position") }
        #expect(warnings.count == 1, "\(shot.stderr)")
        #expect(shot.stderr.contains("{lat} {place} stay empty or show their fallback"), "\(shot.stderr)")
        let typed = try shoot(["--gps", "off", "--text", "no fix"], in: folder, name: "typed.jpg")
        let fallback = try lumaPlane(decodeImage(folder.appendingPathComponent("p3.jpg")))
        #expect(fallback == (try lumaPlane(decodeImage(typed.file))), "the fallback 'no fix' is not what was drawn")
        #expect(try exiftool(["-gps:all"], folder.appendingPathComponent("p1.jpg")).isEmpty)
    }

    @Test func batchReadsThePositionFromThePhotosGPSTags() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let photo = try shoot(["--gps", "off", "--text", " "], in: source, name: "photo.jpg").file
        try exiftool(
            [
                "-overwrite_original", "-GPSLatitude=48.85341", "-GPSLatitudeRef=N", "-GPSLongitude=2.3488",
                "-GPSLongitudeRef=E",
            ], photo)
        var stamped: [[[UInt8]]] = []
        for (name, text) in [("found", "{latlon} {place}"), ("typed", Self.mark)] {
            let output = folder.appendingPathComponent(name)
            let result = try camstamp(["batch", source.path, "-o", output.path, "--text", text, "--format", "png"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            stamped.append(try lumaPlane(decodeImage(output.appendingPathComponent("photo.png"))))
        }
        #expect(stamped.count == 2 && stamped[0] == stamped[1], "the mark is not '\(Self.mark)'")
    }

    /// A stream follows gpsd as a shoot does: with a fix no warning (4 s, past the 3 s gpsd has for its
    /// first fix); without gpsd, one for the whole run.
    @Test(.enabled(if: FakeGPS.installed, "gpsfake and gpsd (gpsd, gpsd-clients) are not installed: make deps"))
    func aStreamWarnsOnceWithoutAFixAndNotWithOne() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gps = try FakeGPS(in: folder)
        defer { gps.stop() }
        for (port, warnings) in [(gps.port, 0), (try freePort(), 1)] {
            let output = folder.appendingPathComponent("clip-\(port).mp4")
            let result = try camstamp([
                "stream", "--source", "test", "--size", "320x240", "--gps", "127.0.0.1:\(port)", "--text",
                "{latlon|no fix} {place}", "--to", output.path, "--duration", "4",
            ])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let said = result.stderr.split(separator: "\n").filter { $0.hasPrefix("camstamp: gps: no position") }
            #expect(said.count == warnings, "gpsd on \(port): \(result.stderr)")
        }
    }
}
