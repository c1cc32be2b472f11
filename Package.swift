// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// camstamp: watermarks on photos and live video, built on GStreamer, Cairo, Pango and librsvg.
import PackageDescription

/// One system-library target per pkg-config name; the Debian package that provides it is named
/// so SwiftPM's hint matches what `make deps` installs.
func systemLibrary(_ name: String, _ pkgConfig: String, _ debian: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([debian])])
}

let package = Package(
    name: "camstamp",
    products: [
        .executable(name: "camstamp", targets: ["camstamp"]),
        // The library: the jobs, `Stamper` and `Marker` (CamStamp) and the preset model their
        // signatures use (Presets). Media, Render and PhotoMetadata stay inside: no C type, and no
        // type of a module a client cannot import, appears in a public signature
        // (`make api-check` holds this).
        .library(name: "CamStamp", targets: ["CamStamp", "Presets"]),
    ],
    targets: [
        systemLibrary("CGStreamer", "gstreamer-1.0", "libgstreamer1.0-dev"),
        systemLibrary("CGstApp", "gstreamer-app-1.0", "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CGstVideo", "gstreamer-video-1.0", "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CCairo", "cairo", "libcairo2-dev"),
        systemLibrary("CPangoCairo", "pangocairo", "libpango1.0-dev"),
        systemLibrary("CRsvg", "librsvg-2.0", "librsvg2-dev"),
        systemLibrary("CQREncode", "libqrencode", "libqrencode-dev"),
        systemLibrary("CFontconfig", "fontconfig", "libfontconfig-dev"),
        systemLibrary("CTurboJPEG", "libturbojpeg", "libturbojpeg0-dev"),
        systemLibrary("CGexiv2", "gexiv2", "libgexiv2-dev"),
        systemLibrary("CZlib", "zlib", "zlib1g-dev"),
        // GeoNames' cities (compiled into libgeonames0; libgeonames-common is its data package).
        systemLibrary("CGeonames", "geonames", "libgeonames-dev"),
        // linux/videodev2.h (linux-libc-dev, part of every C toolchain): camera controls by ioctl.
        .systemLibrary(name: "CV4L2"),
        // malloc.h (glibc): the batch command's allocator tuning.
        .systemLibrary(name: "CMalloc"),
        systemLibrary("CSoup", "libsoup-3.0", "libsoup-3.0-dev"),
        // C that Swift cannot import (variadic functions): soup_server_new, g_signal_emit_by_name.
        .target(name: "CViewfinderShim", dependencies: ["CSoup", "CGStreamer"]),

        // libjpeg's coefficient API for stamping a JPEG without re-encoding it: a C shim only
        // because libjpeg's error_exit must longjmp, which Swift cannot (Debian libjpeg62-turbo-dev).
        .target(
            name: "CJPEGCoefficients",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("m"), .linkedLibrary("crypto")]),
        systemLibrary("CHeif", "libheif", "libheif-dev"),
        systemLibrary("CTIFF", "libtiff-4", "libtiff-dev"),
        // A WebP's metadata chunks set without re-encoding or touching its bitstream.
        systemLibrary("CWebPMux", "libwebpmux", "libwebp-dev"),
        systemLibrary("CGstRtspServer", "gstreamer-rtsp-server-1.0", "libgstrtspserver-1.0-dev"),
        // webrtcbin's session descriptions and SDP (WHIP out of `stream`, the camera page's WebRTC
        // preview); its action signals are variadic, so emitted by a shim, which also makes the
        // connections' ECDSA identity with libcrypto (libssl-dev).
        systemLibrary("CGstWebRTC", "gstreamer-webrtc-1.0", "libgstreamer-plugins-bad1.0-dev"),
        .target(
            name: "CWebRTCShim", dependencies: ["CGstWebRTC", "CGStreamer"],
            linkerSettings: [.linkedLibrary("crypto")]),
        // libx264 behind a GstVideoEncoder that lets go of each frame once x264 has copied it
        // (x264enc holds ~50): the marked clips' H.264 encoder, registered in-process.
        systemLibrary("CX264", "x264", "libx264-dev"),
        .target(name: "CX264Encoder", dependencies: ["CX264", "CGStreamer", "CGstVideo"]),
        // c2pa-rs' C API (libc2pa_c.so from PyPI's c2pa-python wheel, fetched by `make`): the few
        // functions camstamp calls, as pointer types, for the dlopen in Credentials.
        .systemLibrary(name: "CC2PA"),

        // Pure Swift: the preset model, lengths, colours, templates and layout math.
        .target(name: "Presets"),
        // JPEG/PNG metadata read, edited and carried to outputs: EXIF, ICC and IPTC in Swift,
        // XMP through exiv2 (gexiv2), a PNG's compressed ICC profile through zlib, WebP chunks
        // through libwebpmux.
        .target(name: "PhotoMetadata", dependencies: ["CGexiv2", "CZlib", "CWebPMux"]),
        // Cairo/Pango/librsvg: a laid-out mark becomes a premultiplied ARGB overlay.
        .target(
            name: "Render", dependencies: ["Presets", "CCairo", "CPangoCairo", "CRsvg", "CFontconfig", "CQREncode"]),
        // Pure Swift: ISO BMFF (MP4/MOV) boxes read and rewritten where GStreamer 1.22's qtdemux,
        // qtmux and mp4mux lose a clip's sound, frames, tracks, colours or metadata
        // (docs/gstreamer-workarounds.md). Media's only; tested without GStreamer.
        .target(name: "ISOBMFF"),
        // Pure Swift: the invisible mark (invisible-watermark's dwtDct) and its payload, over
        // pixels the caller maps; no C, no Foundation.
        .target(name: "Watermark"),
        // GStreamer: init, templates, typed errors, the frame hub, blending, devices.
        .target(
            name: "Media",
            dependencies: [
                "ISOBMFF", "CGStreamer", "CGstApp", "CGstVideo", "CTurboJPEG", "CV4L2", "CJPEGCoefficients", "CHeif",
                "CTIFF", "CGstRtspServer", "CX264Encoder", "CGstWebRTC", "CWebRTCShim",
            ]),
        // The nearest city to a position ({place}), from libgeonames' offline gazetteer.
        .target(name: "Places", dependencies: ["CGeonames"]),
        // libsoup 3: the camera's HTTP server, MJPEG handed to multisocketsink.
        .target(name: "Viewfinder", dependencies: ["Media", "CSoup", "CViewfinderShim", "CGStreamer"]),
        // Content Credentials (C2PA) through the official SDK: manifests made and signed, read and judged.
        .target(name: "Credentials", dependencies: ["CC2PA", "CSoup"]),
        // The jobs: shoot, batch, stream, camera.
        .target(
            name: "CamStamp",
            dependencies: [
                "Presets", "Render", "Media", "PhotoMetadata", "Viewfinder", "Places", "Watermark", "Credentials",
            ]),
        // The command line: flag tables, validation, messages, exit codes.
        .target(name: "CLI", dependencies: ["CamStamp", "Presets", "CMalloc"]),
        // The executable's .preinit_array blocks SIGINT, SIGTERM and SIGUSR1 before any library's
        // initialiser runs (C only because Swift cannot place a function in that section).
        .target(name: "CStartSignals"),
        .executableTarget(name: "camstamp", dependencies: ["CLI", "CamStamp", "CStartSignals"]),
        // `make bench` only: per-frame costs measured inside one process.
        .executableTarget(name: "camstamp-bench", dependencies: ["CamStamp", "Media", "Presets", "Watermark"]),

        .testTarget(name: "PresetsTests", dependencies: ["Presets"]),
        .testTarget(name: "RenderTests", dependencies: ["Render", "Presets"]),
        .testTarget(name: "ISOBMFFTests", dependencies: ["ISOBMFF", "MovieFixtures"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "ISOBMFF", "MovieFixtures", "TestSupport"]),
        // The mark against invisible-watermark (Scripts/referee.py, run by the tests).
        .testTarget(
            name: "WatermarkTests", dependencies: ["Watermark", "Media", "TestSupport"], exclude: ["Scripts"]),
        .testTarget(name: "PhotoMetadataTests", dependencies: ["PhotoMetadata", "TestSupport"]),
        .testTarget(name: "CredentialsUnitTests", dependencies: ["Credentials"]),
        .testTarget(name: "CLITests", dependencies: ["CLI", "TestSupport"]),
        .testTarget(
            name: "CamStampTests",
            dependencies: ["CamStamp", "Media", "Presets", "Places", "TestSupport", "Watermark"]),
        // Fixtures/: real camera photos, found through #filePath.
        // What the suites share: the one process runner, the binary, scratch folders, tmpfs disks,
        // the seeded generator and fixture makers, pixel checks.
        .target(name: "TestSupport", dependencies: ["Media"], path: "Tests/TestSupport", exclude: ["Scripts"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        // MP4 movie boxes built byte by byte, for the tests of ISOBMFF and of Media's clip probes.
        .target(name: "MovieFixtures", path: "Tests/MovieFixtures"),
        .testTarget(
            name: "EndToEndTests", dependencies: ["Media", "PhotoMetadata", "TestSupport", "Watermark"],
            exclude: ["Fixtures"]),
        // `camstamp camera` over HTTP, in Chromium and in an X11 window; Scripts/ are run by the tests.
        .testTarget(name: "CameraTests", dependencies: ["Media", "TestSupport"], exclude: ["Scripts"]),
    ],
    swiftLanguageModes: [.v6]
)
