// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport
@testable import Media

@Suite struct PipelineErrorTests {
    @Test func aMissingElementIsNamedWithItsDebianPackage() throws {
        #expect(throws: MediaError.missingElements(["nosuchelement"])) {
            try Pipeline("videotestsrc ! nosuchelement ! fakesink")
        }
        let message = MediaError.missingElements(["x264enc"]).description
        #expect(
            message == "GStreamer element not installed: x264enc (install the Debian package gstreamer1.0-plugins-ugly)"
        )
    }

    @Test func aSyntaxErrorIsAParseError() {
        do {
            _ = try Pipeline("videotestsrc ! ! fakesink")
            Issue.record("a broken description was accepted")
        } catch {
            guard case .parse = error else {
                Issue.record("expected .parse, got \(error)")
                return
            }
        }
    }

    @Test func anUnknownPropertyIsFatalNotHalfBuilt() {
        do {
            _ = try Pipeline("videotestsrc no-such-property=1 ! fakesink")
            Issue.record("an unknown property was accepted")
        } catch {
            guard case .parse(let message, _) = error else {
                Issue.record("expected .parse, got \(error)")
                return
            }
            #expect(message.contains("no-such-property"))
        }
    }

    @Test func aFailedStateChangeCarriesTheReasonFromTheBus() throws {
        let pipeline = try Pipeline("filesrc location=/nonexistent/camstamp-test ! fakesink")
        do {
            try pipeline.setState(.playing)
            Issue.record("playing a missing file succeeded")
        } catch {
            guard case .stateChange(let element, let message, _) = error else {
                Issue.record("expected .stateChange, got \(error)")
                return
            }
            #expect(element.contains("filesrc"))
            #expect(message.contains("/nonexistent/camstamp-test") || message.lowercased().contains("not found"))
        }
    }

    @Test func aNegotiationFailureShowsTheCauseFromTheDebugText() throws {
        let output = try FrameOutput(pipeline: Pipeline("appsrc name=stamped ! video/x-raw,format=RGB ! fakesink"))
        try output.start()
        let frame = try VideoFrame(width: 16, height: 16, format: .i420)
        frame.setTimestamps(pts: 0, duration: 33_000_000)
        var failure: MediaError?
        do {
            try output.push(frame)
            try output.finish(timeout: .seconds(5))
        } catch { failure = error }
        let text = failure?.description ?? ""
        #expect(text.contains("not-negotiated"), "got: \(text)")
    }

    @Test func aMissingNamedElementSaysWhatToAdd() throws {
        #expect(throws: MediaError.missingNamedElement(name: "frames", pipeline: "videotestsrc ! fakesink")) {
            try FrameSource(pipeline: Pipeline("videotestsrc ! fakesink"), live: true)
        }
    }
}

@Suite struct TemplateTests {
    @Test(.runsGStreamerElements) func quotedValuesSurviveTheParserUnchanged() throws {
        let awkward = "/tmp/a dir/it's \"quoted\" \\ back ! bang {brace}.jpg"
        let text = try PipelineTemplate("fakesrc ! filesink name=out location={location}").render([
            "location": .quoted(awkward)
        ])
        let pipeline = try Pipeline(text)
        #expect(try pipeline.element(named: "out").string("location") == awkward)
    }

    @Test func unknownPlaceholdersAndUnsafeWordsAreRefused() {
        #expect(throws: MediaError.invalidTemplate("built-in template: unknown placeholder '{size}'")) {
            try PipelineTemplate("videotestsrc ! {size} ! fakesink").render([:])
        }
        #expect(throws: MediaError.invalidTemplate("'{name}' must be a plain word, got 'x ! filesink'")) {
            try PipelineTemplate("videotestsrc name={name} ! fakesink").render(["name": .word("x ! filesink")])
        }
    }
}

@Suite struct FrameRoundTripTests {
    @Test func testCameraFramesComeOutAtTheRequestedSizeAsI420() throws {
        let template = try shippedTemplate("capture")
        let source = try FrameSource.capture(
            .test, format: CaptureFormat(width: 160, height: 120, fps: 30), template: template)
        try source.start()
        defer { source.stop() }
        var frames: [VideoFrame] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while frames.count < 3 && ContinuousClock.now < deadline {
            switch try source.pull(timeout: .seconds(5)) {
            case .frame(let frame): frames.append(frame)
            case .timeout: continue
            case .endOfStream: Issue.record("the test camera ended")
            }
        }
        #expect(frames.count == 3)
        #expect(frames.allSatisfy { $0.width == 160 && $0.height == 120 && $0.format == .i420 })
        // Timestamps advance at 30 fps.
        let times = frames.compactMap(\.presentationTime)
        #expect(times.count == 3 && times[2] > times[0])
    }

    @Test func aBlendedFrameIsEncodedAndDecodesWithTheMark() throws {
        let directory = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("out.png")

        let frame = try blackFrame(64, 48, .i420)
        frame.setTimestamps(pts: 0, duration: 33_333_333)
        let white = try solidOverlay(width: 16, height: 8, b: 255, g: 255, r: 255, a: 255)
        try OverlayComposition([.init(image: white, x: 40, y: 32)]).blend(into: frame)
        let description = try PipelineTemplate(
            "appsrc name=stamped ! videoconvert ! pngenc ! filesink location={location}"
        )
        .render(["location": .quoted(file.path)])
        let output = try FrameOutput(pipeline: Pipeline(description))
        try output.start()
        try output.push(frame)
        try output.finish()

        let decoded = try FrameSource.firstFrame(of: file, format: .i420)
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(abs(luma(decoded, 48, 36) - 235) <= 2)
        #expect(abs(luma(decoded, 10, 10) - 16) <= 2)
    }

    @Test func captureQueuesAreBoundedFromCode() throws {
        let source = try FrameSource(pipeline: Pipeline("videotestsrc ! appsink name=frames"), live: true)
        let sink = try source.pipeline.element(named: "frames")
        #expect(sink.string("max-buffers") == "2")
        #expect(sink.string("drop") == "TRUE")
        #expect(sink.string("enable-last-sample") == "FALSE")
        let output = try FrameOutput(pipeline: Pipeline("appsrc name=stamped ! fakesink"))
        let appsrc = try output.pipeline.element(named: "stamped")
        #expect(
            appsrc.string("format")?.uppercased().contains("TIME") == true,
            "format is \(appsrc.string("format") ?? "nil")")
        #expect(appsrc.string("block") == "TRUE")
    }
}
