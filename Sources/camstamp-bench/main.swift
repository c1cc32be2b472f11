// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// camstamp-bench: the steady-state cost of `Marker.mark` on video frames, measured inside one
// process (no capture, no encoder), for `make bench` (see bench/README.md).
//
//   camstamp-bench [--preset NAME]... [--text T] [--var KEY=VALUE]... [--size WxH]
//                  [--format I420|NV12|...] [--frames N] [--warmup N] [--ring K] [--json]
//   camstamp-bench invisible [WIDTH HEIGHT ROUNDS]      (the invisible mark: Invisible.swift)
//
// It builds the stacked preset exactly as the CLI does (MarkSetup, bundled fonts registered), makes
// K frames of the requested size and format, marks W frames untimed (the overlays get rendered and
// cached, GStreamer converts them to the frame's format), then times N calls of `mark` (cycling over
// the K frames as a capture buffer pool would), each with a fresh template context as the stream job
// makes one per frame. Per call it records the wall clock and this thread's CPU clock.
import CamStamp
import Foundation
import Media
import Presets

#if canImport(Glibc)
import Glibc
#endif

struct Settings {
    var presets: [String] = []
    var text: String?
    var variables: [VariableAssignment] = []
    var width = 1920
    var height = 1080
    var format = PixelFormat.i420
    var frames = 300
    var warmup = 30
    var ring = 4
    var json = false
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("camstamp-bench: \(message)\n".utf8))
    exit(64)
}

func parse(_ arguments: [String]) -> Settings {
    var settings = Settings()
    var rest = arguments[...]
    func value(_ flag: String) -> String {
        guard let next = rest.popFirst() else { fail("\(flag) needs a value") }
        return next
    }
    func count(_ flag: String, minimum: Int) -> Int {
        let text = value(flag)
        guard let number = Int(text), number >= minimum else {
            fail("\(flag) wants an integer ≥ \(minimum), not '\(text)'")
        }
        return number
    }
    while let argument = rest.popFirst() {
        switch argument {
        case "--preset": settings.presets.append(value(argument))
        case "--text": settings.text = value(argument)
        case "--var":
            let pair = value(argument)
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                fail("--var wants KEY=VALUE")
            }
            settings.variables.append(
                VariableAssignment(
                    key: String(pair[..<equals]),
                    value: String(pair[pair.index(after: equals)...])))
        case "--size":
            let parts = value(argument).lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { fail("--size wants WxH, e.g. 1920x1080") }
            settings.width = parts[0]
            settings.height = parts[1]
        case "--format":
            let name = value(argument)
            guard let format = PixelFormat.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() })
            else {
                fail("--format: one of \(PixelFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            settings.format = format
        case "--frames": settings.frames = count(argument, minimum: 1)
        case "--warmup": settings.warmup = count(argument, minimum: 1)
        case "--ring": settings.ring = count(argument, minimum: 1)
        case "--json": settings.json = true
        case "-h", "--help":
            print(
                """
                usage: camstamp-bench [--preset NAME]... [--text T] [--var KEY=VALUE]... [--size WxH]
                                      [--format I420] [--frames N] [--warmup N] [--ring K] [--json]
                Times FrameMarker.mark per frame after warm-up (overlays cached): wall and thread-CPU ms.
                """)
            exit(0)
        default: fail("unknown argument '\(argument)' (try --help)")
        }
    }
    if settings.presets.isEmpty && settings.text == nil { settings.presets = ["credit", "logo"] }
    return settings
}

/// Seconds on `clock` (CLOCK_MONOTONIC for wall, CLOCK_THREAD_CPUTIME_ID for this thread's CPU).
@inline(__always)
func seconds(_ clock: clockid_t) -> Double {
    var spec = timespec()
    clock_gettime(clock, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let position = p * Double(sorted.count - 1)
    let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
    return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
}

func formatted(_ value: Double) -> String { String(format: "%.4f", value) }

/// The marker for `settings`' marks; exits on a preset error.
func makeMarker(_ settings: Settings) -> FrameMarker {
    do {
        let setup = try MarkSetup.preset(
            names: settings.presets, text: settings.text, variables: settings.variables,
            resources: Resources.locate())
        return FrameMarker(preset: setup.preset, variables: setup.variables)
    } catch {
        fail("\(error)")
    }
}

/// A small pool of frames with some content (a luma ramp that differs per frame, grey chroma), so
/// the blend reads and writes real memory rather than one hot frame.
func makeFramePool(_ settings: Settings) -> [VideoFrame] {
    var pool: [VideoFrame] = []
    do {
        for index in 0..<settings.ring {
            let frame = try VideoFrame(width: settings.width, height: settings.height, format: settings.format)
            try frame.withMapped { mapped in
                for plane in 0..<mapped.planeCount {
                    let bytes = mapped.plane(plane)
                    let stride = mapped.stride(plane)
                    for offset in 0..<bytes.count {
                        bytes[offset] =
                            plane == 0 ? UInt8(truncatingIfNeeded: 16 + (offset % stride) / 9 + index * 13) : 128
                    }
                }
            }
            pool.append(frame)
        }
    } catch {
        fail("cannot make a \(settings.width)x\(settings.height) \(settings.format.rawValue) frame: \(error)")
    }
    return pool
}

/// Per-frame times in milliseconds, and the run's totals.
struct Timings {
    var wall: [Double] = []
    var cpu: [Double] = []
    var totalWall = 0.0
    var totalCPU = 0.0
    var rendersInWarmup = 0
    var rendersTimed = 0
}

/// Sets up the marker and frames, warms up, times, prints.
func measure(_ settings: Settings) {
    let marker = makeMarker(settings)
    let pool = makeFramePool(settings)
    // Fixed capture date: a date in the mark must not roll over between warm-up and timing.
    let captureDate = Date(timeIntervalSince1970: 1_780_000_000)
    let fps = 30.0

    func markOne(_ number: Int) {
        let frame = pool[number % pool.count]
        let context = marker.context(
            width: frame.width, height: frame.height, captureDate: captureDate,
            frame: number, fps: fps)
        do {
            try marker.mark(frame, context: context)
        } catch {
            fail("mark: \(error)")
        }
    }

    for number in 0..<settings.warmup { markOne(number) }
    var t = Timings(rendersInWarmup: marker.renderCount)
    t.wall.reserveCapacity(settings.frames)
    t.cpu.reserveCapacity(settings.frames)
    let runWall0 = seconds(CLOCK_MONOTONIC)
    let runCPU0 = seconds(CLOCK_THREAD_CPUTIME_ID)
    for number in settings.warmup..<(settings.warmup + settings.frames) {
        let w0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_THREAD_CPUTIME_ID)
        markOne(number)
        let c1 = seconds(CLOCK_THREAD_CPUTIME_ID), w1 = seconds(CLOCK_MONOTONIC)
        t.wall.append((w1 - w0) * 1000)
        t.cpu.append((c1 - c0) * 1000)
    }
    t.totalWall = (seconds(CLOCK_MONOTONIC) - runWall0) * 1000
    t.totalCPU = (seconds(CLOCK_THREAD_CPUTIME_ID) - runCPU0) * 1000
    t.rendersTimed = marker.renderCount - t.rendersInWarmup
    report(t, settings)
}

/// One JSON line (`--json`, read by bench/run.sh) or three lines for a person.
func report(_ t: Timings, _ settings: Settings) {
    let sortedWall = t.wall.sorted(), sortedCPU = t.cpu.sorted()
    let frames = Double(settings.frames)
    let label = settings.presets.joined(separator: "+") + (settings.text.map { " --text \($0)" } ?? "")
    if settings.json {
        // Keys are stable for bench/run.sh.
        let fields: [String: Any] = [
            "marks": label, "width": settings.width, "height": settings.height,
            "format": settings.format.rawValue, "frames": settings.frames, "warmup": settings.warmup,
            "ring": settings.ring, "renders_in_warmup": t.rendersInWarmup, "renders_timed": t.rendersTimed,
            "wall_ms_mean": t.totalWall / frames,
            "wall_ms_median": percentile(sortedWall, 0.5),
            "wall_ms_p90": percentile(sortedWall, 0.9),
            "wall_ms_min": sortedWall.first ?? 0,
            "cpu_ms_mean": t.totalCPU / frames,
            "cpu_ms_median": percentile(sortedCPU, 0.5),
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else {
            fail("cannot write the JSON line")
        }
        print(String(decoding: data, as: UTF8.self))
    } else {
        print(
            """
            marks \(label) on \(settings.width)x\(settings.height) \(settings.format.rawValue), \
            \(settings.frames) frames after \(settings.warmup) warm-up \
            (\(renderNote(t.rendersInWarmup, t.rendersTimed)))
            wall ms/frame: mean \(formatted(t.totalWall / frames)) median \(formatted(percentile(sortedWall, 0.5))) \
            p90 \(formatted(percentile(sortedWall, 0.9))) min \(formatted(sortedWall.first ?? .nan))
            cpu  ms/frame: mean \(formatted(t.totalCPU / frames)) median \(formatted(percentile(sortedCPU, 0.5)))
            """)
    }
}

func renderNote(_ warm: Int, _ timed: Int) -> String {
    "\(warm) overlay renders in warm-up, \(timed) while timed"
}

let benchArguments = Array(CommandLine.arguments.dropFirst())
if benchArguments.first == "invisible" {
    benchInvisible(Array(benchArguments.dropFirst()))
} else {
    measure(parse(benchArguments))
}
