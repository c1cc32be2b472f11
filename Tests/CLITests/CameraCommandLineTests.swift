// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
@testable import CLI
import Foundation
import Testing

/// `camstamp camera`'s flags: defaults, addresses, the token, and exact messages.
@Suite struct CameraCommandLineTests {
    func camera(_ arguments: String...) throws -> CameraOptions {
        guard case .camera(let options) = try parseCommandLine(["camera"] + arguments) else {
            throw UsageError("not a camera command")
        }
        return options
    }

    func error(_ arguments: String...) -> String? {
        do {
            return "no error: \(try parseCommandLine(["camera"] + arguments))"
        } catch {
            return error.message
        }
    }

    @Test func theDefaultsServeTheWebPageOnLoopbackPort8080() throws {
        let options = try camera("--source", "test", "--text", "x")
        #expect(options.web == WebAddress(host: "127.0.0.1", port: 8080))
        #expect(!options.window && options.token == nil && options.output == nil && !options.mirrorPhotos)
        #expect(options.source == .test && options.text == "x")
    }

    @Test func theWindowReplacesTheDefaultAddressAndBothRunWhenBothAreGiven() throws {
        #expect(try camera("--window").web == nil)
        #expect(try camera("--window", "--web", "9000").web == WebAddress(host: "127.0.0.1", port: 9000))
    }

    @Test func webAddressesParse() throws {
        #expect(try WebAddress(parsing: "8080") == WebAddress(host: "127.0.0.1", port: 8080))
        #expect(try WebAddress(parsing: "0.0.0.0:80") == WebAddress(host: "0.0.0.0", port: 80))
        #expect(try WebAddress(parsing: "localhost:0") == WebAddress(host: "127.0.0.1", port: 0))
        #expect(try WebAddress(parsing: "[::1]:8080") == WebAddress(host: "::1", port: 8080))
        #expect(try WebAddress(parsing: "127.0.0.2:1").isLoopback)
        #expect(try !WebAddress(parsing: "192.168.1.20:8080").isLoopback)
        #expect(try !WebAddress(parsing: "0.0.0.0:8080").isLoopback)
        let expected = "expected [ADDR:]PORT with an IP address, e.g. 8080, 127.0.0.1:8080 or 0.0.0.0:8080"
        #expect(error("--web", "camera.local:8080") == "invalid value 'camera.local:8080' for '--web': \(expected)")
        #expect(error("--web", "70000") == "invalid value '70000' for '--web': \(expected)")
        #expect(error("--web", "[::1]8080") == "invalid value '[::1]8080' for '--web': \(expected)")
    }

    @Test func aTokenMustBeLongAndPlain() throws {
        #expect(try camera("--token", "abcdefgh-1234").token == "abcdefgh-1234")
        let message = "'--token' must be at least 8 letters, digits or -_.~ (it goes in URLs and cookies)"
        #expect(error("--token", "short") == message)
        #expect(error("--token", "has space in it") == message)
        #expect(error("--token", "a;b=c&d?ef") == message)
    }

    @Test func otherFlagsParse() throws {
        let options = try camera(
            "-o", "shots", "--size", "1920x1080", "--fps", "15", "--quality", "80", "--mirror-photos",
            "--preset", "timestamp", "--preset", "credit", "--var", "author=Me")
        #expect(options.output?.lastPathComponent == "shots" && options.output?.hasDirectoryPath == true)
        #expect(options.size == FrameSize(width: 1920, height: 1080) && options.fps == 15 && options.quality == 80)
        #expect(options.mirrorPhotos && options.presets == ["timestamp", "credit"])
        #expect(options.variables == [VariableAssignment(key: "author", value: "Me")])
        #expect(error("--qualty", "80") == "unknown option '--qualty' for 'camstamp camera'; did you mean '--quality'?")
    }

    @Test func helpListsTheCameraAndItsKeys() throws {
        // Words compared with the wrapping undone.
        let help = try #require(helpText(for: ["camera"])).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for words in [
            "--web [ADDR:]PORT", "--window", "--token TOKEN", "--mirror-photos",
            "Space shoot, G grid, S square, M mirror, T timer, Q or Esc quit",
        ] {
            #expect(help.contains(words), "\(words) missing from:\n\(help)")
        }
        #expect(helpText(for: [])?.contains("camera") == true)
    }
}
