// swift-tools-version:6.0
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
        .library(name: "CamStamp", targets: ["CamStamp"]),
    ],
    targets: [
        systemLibrary("CGStreamer", "gstreamer-1.0", "libgstreamer1.0-dev"),
        systemLibrary("CGstApp", "gstreamer-app-1.0", "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CGstVideo", "gstreamer-video-1.0", "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CCairo", "cairo", "libcairo2-dev"),
        systemLibrary("CPangoCairo", "pangocairo", "libpango1.0-dev"),
        systemLibrary("CRsvg", "librsvg-2.0", "librsvg2-dev"),
        systemLibrary("CFontconfig", "fontconfig", "libfontconfig-dev"),
        systemLibrary("CSoup", "libsoup-3.0", "libsoup-3.0-dev"),
        // C that Swift cannot import (variadic functions): soup_server_new, g_signal_emit_by_name.
        .target(name: "CViewfinderShim", dependencies: ["CSoup", "CGStreamer"]),

        // Pure Swift: the preset model, lengths, colours, templates and layout math.
        .target(name: "Presets"),
        // Pure Swift: JPEG/PNG metadata (EXIF, ICC, XMP) read, edited and carried to outputs.
        .target(name: "PhotoMetadata"),
        // Cairo/Pango/librsvg: a laid-out mark becomes a premultiplied ARGB overlay.
        .target(name: "Render", dependencies: ["Presets", "CCairo", "CPangoCairo", "CRsvg", "CFontconfig"]),
        // GStreamer: init, templates, typed errors, the frame hub, blending, devices.
        .target(name: "Media", dependencies: ["CGStreamer", "CGstApp", "CGstVideo"]),
        // libsoup 3: the camera's HTTP server, MJPEG handed to multisocketsink.
        .target(name: "Viewfinder", dependencies: ["Media", "CSoup", "CViewfinderShim", "CGStreamer"]),
        // The jobs: shoot, batch, stream, camera.
        .target(name: "CamStamp", dependencies: ["Presets", "Render", "Media", "PhotoMetadata", "Viewfinder"]),
        // The command line: flag tables, validation, messages, exit codes.
        .target(name: "CLI", dependencies: ["CamStamp", "Presets"]),
        .executableTarget(name: "camstamp", dependencies: ["CLI", "CamStamp"]),
        // `make bench` only: per-frame costs measured inside one process.
        .executableTarget(name: "camstamp-bench", dependencies: ["CamStamp", "Media", "Presets"]),

        .testTarget(name: "PresetsTests", dependencies: ["Presets"]),
        .testTarget(name: "RenderTests", dependencies: ["Render", "Presets"]),
        .testTarget(name: "MediaTests", dependencies: ["Media"]),
        .testTarget(name: "PhotoMetadataTests", dependencies: ["PhotoMetadata"]),
        .testTarget(name: "CLITests", dependencies: ["CLI"]),
        .testTarget(name: "CamStampTests", dependencies: ["CamStamp", "Media", "Presets"]),
        // Fixtures/: real camera photos, found through #filePath.
        .testTarget(name: "EndToEndTests", dependencies: ["Media", "PhotoMetadata"], exclude: ["Fixtures"]),
        // `camstamp camera` over HTTP, in Chromium and in an X11 window; Scripts/ are run by the tests.
        .testTarget(name: "CameraTests", dependencies: ["Media"], exclude: ["Scripts"]),
    ],
    swiftLanguageModes: [.v6]
)
