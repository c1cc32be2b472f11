// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
@testable import CLI
import Foundation
import Testing

/// The value parsers of CamStamp's options, good and bad values, with exact messages.
@Suite struct ValueTests {
    func message(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as OptionValueError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func sourceSpecs() throws {
        #expect(try SourceSpec(parsing: "auto") == .auto)
        #expect(try SourceSpec(parsing: "test") == .test)
        #expect(try SourceSpec(parsing: "/dev/video0") == .v4l2(device: "/dev/video0"))
        #expect(try SourceSpec(parsing: "v4l2:/dev/video2") == .v4l2(device: "/dev/video2"))
        #expect(try SourceSpec(parsing: "file:/tmp/clip.mp4") == .file(URL(fileURLWithPath: "/tmp/clip.mp4")))
        // Anything else is a camera's name, resolved against `camstamp devices` when the job starts.
        #expect(try SourceSpec(parsing: "HD Webcam") == .named("HD Webcam"))
        #expect(try SourceSpec(parsing: "Test") == .named("Test"))
        for bad in ["", " ", "v4l2:", "v4l2:video0", "file:", "/dev/", "/home/me/clip.mp4"] {
            #expect(
                message { try SourceSpec(parsing: bad) }
                    == "invalid value '\(bad)' for '--source': expected auto, test, /dev/videoN, "
                    + "v4l2:/dev/videoN, file:PATH or a camera name")
        }
    }

    @Test func warmupDefaultsBySource() {
        #expect(SourceSpec.test.defaultWarmup == 0)
        #expect(SourceSpec.auto.defaultWarmup == 15)
        #expect(ShootOptions(source: .v4l2(device: "/dev/video0")).effectiveWarmup == 15)
        #expect(ShootOptions(source: .test, warmup: 3).effectiveWarmup == 3)
    }

    @Test func frameSizes() throws {
        #expect(try FrameSize(parsing: "1280x720") == FrameSize(width: 1280, height: 720))
        #expect(try FrameSize(parsing: "640X480") == FrameSize(width: 640, height: 480))
        #expect(FrameSize(width: 3, height: 2).description == "3x2")
        for bad in ["abc", "1280", "1280x", "x720", "1280x720x3", "12.5x3", ""] {
            #expect(
                message { try FrameSize(parsing: bad) }
                    == "invalid value '\(bad)' for '--size': expected WIDTHxHEIGHT, e.g. 1280x720")
        }
        #expect(message { try FrameSize(parsing: "0x720") } == "'--size' must be at least 1x1 (got 0x720)")
        #expect(message { try FrameSize(parsing: "-4x720") } == "'--size' must be at least 1x1 (got -4x720)")
    }

    @Test func imageFormats() throws {
        #expect(try ImageFormat(parsing: "jpg") == .jpg)
        #expect(try ImageFormat(parsing: "JPEG") == .jpg)
        #expect(try ImageFormat(parsing: "png") == .png)
        #expect(
            message { try ImageFormat(parsing: "keep") } == "invalid value 'keep' for '--format': expected jpg or png")
        #expect(try BatchFormat(parsing: "keep") == .keep)
        #expect(try BatchFormat(parsing: "png") == .convert(.png))
        #expect(try BatchFormat(parsing: "webp") == .convert(.webp))
        #expect(try BatchFormat(parsing: "HEIC") == .convert(.heic))
        #expect(try BatchFormat(parsing: "heif") == .convert(.heic))
        #expect(try BatchFormat(parsing: "tif") == .convert(.tiff))
        #expect(try BatchFormat(parsing: "tiff") == .convert(.tiff))
        // `shoot --format` stays jpg|png: the batch formats are not still-camera formats.
        #expect(
            message { try ImageFormat(parsing: "webp") } == "invalid value 'webp' for '--format': expected jpg or png")
        #expect(
            message { try BatchFormat(parsing: "gif") }
                == "invalid value 'gif' for '--format': expected keep, jpg, png, webp, heic or tiff")
        // One format enum for shoot, batch and the library: its extension is the one batch writes
        // (`.tif`, not the `.tiff` ImageFormat said while batch had its own enum).
        #expect(ImageFormat.allCases.map(\.fileExtension) == ["jpg", "png", "webp", "heic", "tif", "avif"])
    }

    @Test func streamTargets() throws {
        let folder = FileManager.default.temporaryDirectory.path
        #expect(
            try StreamTarget(parsing: "\(folder)/out.mp4")
                == .file(URL(fileURLWithPath: "\(folder)/out.mp4"), container: .mp4))
        #expect(
            try StreamTarget(parsing: "\(folder)/OUT.MKV")
                == .file(URL(fileURLWithPath: "\(folder)/OUT.MKV"), container: .mkv))
        #expect(
            try StreamTarget(parsing: "relative.mp4") == .file(URL(fileURLWithPath: "relative.mp4"), container: .mp4))
        #expect(try StreamTarget(parsing: "rtp://127.0.0.1:5000") == .rtp(host: "127.0.0.1", port: 5000))
        #expect(try StreamTarget(parsing: "rtp://receiver.local:65535") == .rtp(host: "receiver.local", port: 65535))
        #expect(try StreamTarget(parsing: "rtp://[::1]:5004") == .rtp(host: "::1", port: 5004))
        let choices =
            "use a .mp4 or .mkv file, rtp://HOST:PORT, rtmp://HOST/APP/KEY, srt://HOST:PORT, hls:DIR, whip://HOST:PORT/PATH or v4l2:/dev/videoN"
        #expect(
            message { try StreamTarget(parsing: "ftp://x") } == "unsupported target 'ftp://x' for '--to': \(choices)")
        #expect(
            message { try StreamTarget(parsing: "out.avi") } == "unsupported target 'out.avi' for '--to': \(choices)")
        #expect(message { try StreamTarget(parsing: "/nope/out.mp4") } == "'--to' folder '/nope' does not exist")
        #expect(
            try StreamTarget(parsing: "whip://127.0.0.1:8889/live/whip")
                == .whip(url: "whip://127.0.0.1:8889/live/whip"))
        #expect(
            try StreamTarget(parsing: "WHIPS://ingest.example.com/whip")
                == .whip(url: "WHIPS://ingest.example.com/whip"))
        #expect(try StreamTarget(parsing: "v4l2:/dev/video10") == .v4l2(device: "/dev/video10"))
        for bad in ["v4l2:", "v4l2:video10", "V4L2:dev/video1"] {
            #expect(
                message { try StreamTarget(parsing: bad) }
                    == "invalid value '\(bad)' for '--to': expected v4l2:/dev/videoN, a v4l2loopback device, "
                    + "e.g. v4l2:/dev/video10")
        }
        for bad in ["whip://", "whip:///path", "whips://host/a b"] {
            #expect(
                message { try StreamTarget(parsing: bad) }
                    == "invalid value '\(bad)' for '--to': expected whip://HOST[:PORT]/PATH or whips://HOST/PATH, "
                    + "e.g. whip://127.0.0.1:8889/live/whip")
        }
        for bad in ["rtp://host", "rtp://:5000", "rtp://host:0", "rtp://host:70000", "rtp://host:port", "rtp://a:b:1"] {
            #expect(
                message { try StreamTarget(parsing: bad) }
                    == "invalid value '\(bad)' for '--to': expected rtp://HOST:PORT, e.g. rtp://127.0.0.1:5000")
        }
    }

    @Test func publishingTargets() throws {
        let folder = FileManager.default.temporaryDirectory.path
        #expect(
            try StreamTarget(parsing: "rtmp://live.example.com/live/key")
                == .rtmp(url: "rtmp://live.example.com/live/key"))
        #expect(
            try StreamTarget(parsing: "rtmp://127.0.0.1:1935/app/a/b") == .rtmp(url: "rtmp://127.0.0.1:1935/app/a/b"))
        #expect(try StreamTarget(parsing: "rtmps://x.example/app/key") == .rtmp(url: "rtmps://x.example/app/key"))
        for bad in ["rtmp://host", "rtmp://host/app", "rtmp://host/app/", "rtmp:///app/key"] {
            #expect(
                message { try StreamTarget(parsing: bad) }
                    == "invalid value '\(bad)' for '--to': expected rtmp://HOST[:PORT]/APP/KEY, e.g. rtmp://live.example.com/live/streamkey"
            )
        }
        #expect(
            try StreamTarget(parsing: "srt://203.0.113.5:9000")
                == .srt(host: "203.0.113.5", port: 9000, listener: false))
        #expect(try StreamTarget(parsing: "srt://:9000?mode=listener") == .srt(host: nil, port: 9000, listener: true))
        #expect(
            try StreamTarget(parsing: "srt://[::1]:9000?mode=caller") == .srt(host: "::1", port: 9000, listener: false))
        for bad in ["srt://host", "srt://host:0", "srt://h:9000?mode=rendezvous", "srt://:9000"] {
            #expect((try? StreamTarget(parsing: bad)) == nil, "\(bad)")
        }
        #expect(
            try StreamTarget(parsing: "hls:\(folder)/live")
                == .hls(folder: URL(fileURLWithPath: "\(folder)/live", isDirectory: true)))
        #expect(message { try StreamTarget(parsing: "hls:/nope/live") } == "'--to' folder '/nope' does not exist")
        #expect(
            message { try StreamTarget(parsing: "hls:") }
                == "invalid value 'hls:' for '--to': expected hls:DIR, e.g. hls:/var/www/live")
        #expect(
            try RTSPServe(parsing: "rtsp://0.0.0.0:8554/live")
                == RTSPServe(address: "0.0.0.0", port: 8554, path: "/live"))
        #expect(
            try RTSPServe(parsing: "rtsp://[::]:8554/cam/1") == RTSPServe(address: "::", port: 8554, path: "/cam/1"))
        for bad in [
            "rtsp://0.0.0.0/live", "rtsp://0.0.0.0:8554", "rtsp://0.0.0.0:8554/", "http://x:1/live",
            "rtsp://:8554/live",
        ] {
            #expect(
                message { try RTSPServe(parsing: bad) }
                    == "invalid value '\(bad)' for '--serve': expected rtsp://ADDRESS:PORT/PATH, e.g. rtsp://0.0.0.0:8554/live"
            )
        }
        #expect(try AudioChoice(parsing: "auto") == .auto)
        #expect(try AudioChoice(parsing: "none") == AudioChoice.none)
        #expect(try AudioChoice(parsing: "hw:1,0") == .device("hw:1,0"))
    }

    @Test func variables() throws {
        #expect(try VariableAssignment(parsing: "job=A-113") == VariableAssignment(key: "job", value: "A-113"))
        #expect(try VariableAssignment(parsing: "eq=a=b") == VariableAssignment(key: "eq", value: "a=b"))
        #expect(try VariableAssignment(parsing: "empty=") == VariableAssignment(key: "empty", value: ""))
        for bad in ["job", "=value", ""] {
            #expect(message { try VariableAssignment(parsing: bad) } == "--var expects KEY=VALUE")
        }
    }

    @Test func numbers() throws {
        #expect(try NumberOption.quality("1") == 1)
        #expect(try NumberOption.quality("100") == 100)
        #expect(message { try NumberOption.quality("120") } == "'--quality' must be between 1 and 100 (got 120)")
        #expect(message { try NumberOption.quality("0") } == "'--quality' must be between 1 and 100 (got 0)")
        #expect(
            message { try NumberOption.quality("high") }
                == "invalid value 'high' for '--quality': expected a whole number")
        #expect(try NumberOption.jobs("4") == 4)
        #expect(message { try NumberOption.jobs("0") } == "--jobs must be at least 1")
        #expect(
            message { try NumberOption.jobs("many") } == "invalid value 'many' for '--jobs': expected a whole number")
        #expect(try NumberOption.integer("30", option: "--fps", in: 1...Int.max) == 30)
        #expect(
            message { try NumberOption.integer("0", option: "--fps", in: 1...Int.max) }
                == "'--fps' must be at least 1 (got 0)")
        #expect(try NumberOption.seconds("2.5") == 2.5)
        #expect(try NumberOption.seconds("10") == 10)
        #expect(message { try NumberOption.seconds("0") } == "'--duration' must be more than 0 seconds (got 0)")
        #expect(
            message { try NumberOption.seconds("inf") }
                == "invalid value 'inf' for '--duration': expected a number of seconds, e.g. 10 or 2.5")
        #expect(
            message { try NumberOption.seconds("10s") }
                == "invalid value '10s' for '--duration': expected a number of seconds, e.g. 10 or 2.5")
    }

    @Test func pixelCounts() throws {
        #expect(try NumberOption.pixels("50000000") == 50_000_000)
        #expect(try NumberOption.pixels("50M") == 50_000_000)
        #expect(try NumberOption.pixels("0.5m") == 500_000)
        #expect(try NumberOption.pixels("1") == 1)
        let expected = "expected a number of pixels, e.g. 50000000 or 50M"
        for bad in ["", "M", "50MP", "x", "+5", "1e3", "nanM", "infM", "50 M", "٥٠"] {
            #expect(
                message { try NumberOption.pixels(bad) }
                    == "invalid value '\(bad)' for '--max-pixels': \(expected)", "\(bad)")
        }
        #expect(message { try NumberOption.pixels("0") } == "'--max-pixels' must be at least 1 pixel (got 0)")
        #expect(message { try NumberOption.pixels("-5M") } == "'--max-pixels' must be at least 1 pixel (got -5M)")
        #expect(
            message { try NumberOption.pixels("0.0000001M") }
                == "'--max-pixels' must be at least 1 pixel (got 0.0000001M)")
        let arguments = ["batch", "in", "-o", "out", "--max-pixels", "30M"]
        guard case .batch(let options) = try parseCommandLine(arguments) else {
            Issue.record("not a batch")
            return
        }
        #expect(options.maxDecodedPixels == 30_000_000)
        guard case .batch(let plain) = try parseCommandLine(["batch", "in", "-o", "out"]) else { return }
        #expect(plain.maxDecodedPixels == BatchOptions.defaultMaxDecodedPixels)
    }
}
