// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// `camstamp camera` and `camstamp devices`: their tables and the options they build.
import CamStamp
import Foundation
import Presets

extension Commands {
    /// `camstamp camera`.
    enum Camera {
        static let output = Single<String>(
            "output", short: "o", value: "DIR",
            help: "The folder photos go to, named camstamp-YYYYMMDD-HHMMSS-N.jpg (created if missing).",
            default: "the current folder")
        static let web = Single<WebAddress>(
            "web", value: "[ADDR:]PORT",
            help: "Serve the viewfinder page on ADDR:PORT (0 picks a free port). Any address but "
                + "127.0.0.1 or ::1 requires the token.",
            default: "127.0.0.1:8080 unless --window"
        ) { try WebAddress(parsing: $0, option: $1) }
        static let window = Flag(
            "window",
            help: "Open a native X11 window instead (keys: Space shoot, G grid, S square, "
                + "M mirror, T timer, Q or Esc quit).")
        static let token = Single<String>(
            "token", value: "TOKEN",
            help: "Required on every web request (?token=, then a cookie). Default on a non-loopback "
                + "address: a random one, printed in the URL."
        ) { token, option in
            guard token.count >= 8,
                token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) })
            else {
                throw OptionValueError(
                    "'\(option)' must be at least 8 letters, digits or -_.~ (it goes in URLs and cookies)")
            }
            return token
        }
        static let mirrorPhotos = Flag(
            "mirror-photos",
            help: "Kept for scripts: the photos are mirrored whenever Mirror is on, as the preview shows them.")

        static let invisible = Flag(
            "invisible",
            help: "Also write an invisible mark into every photo, after the visible ones: 64 bits derived from "
                + "the photo's instance id (with --sign, the manifest's), as shoot --invisible writes it.")
        static let spec = CommandSpec(
            "camera",
            overview: "The watermark camera: a live viewfinder with the marks, in a browser or a window.",
            keys: markedCapture + [output, web, window, token, size, fps, quality, mirrorPhotos, pipeline, invisible]
                + photoLocation + [tlsCertificate, tlsKey] + Signing.keys,
            discussion:
                "Photos are full camera resolution; the grid and the square frame are drawn on the preview only. "
                + "Runs until Ctrl-C or SIGTERM (exit 130, every photo written).")
    }

    /// `camstamp devices`.
    enum Devices {
        static let json = Flag(
            "json",
            help:
                "Print the cameras as JSON (with each control's range, default, value, menu items and flags), for scripts."
        )

        static let spec = CommandSpec(
            "devices", overview: "List the cameras that --source can use, with their modes and V4L2 controls.",
            keys: [json])
    }

    static func cameraOptions(_ values: OptionValues) throws -> CameraOptions {
        var options = CameraOptions()
        try applyMarkedCapture(values, to: &options)
        options.output = try values.get(Camera.output).map { URL(fileURLWithPath: $0, isDirectory: true) }
        let web = try values.get(Camera.web)
        options.window = values.get(Camera.window)
        // The window replaces the default web address; both run when both are asked for.
        options.web = web ?? (options.window ? nil : .default)
        options.token = try values.get(Camera.token)
        options.size = try values.get(size)
        options.fps = try values.get(fps)
        options.quality = try values.get(quality) ?? options.quality
        options.mirrorPhotos = values.get(Camera.mirrorPhotos)
        options.pipeline = try values.get(pipeline)
        options.location = try locationOptions(values, photos: true)
        if let tls = try tlsFiles(values) {
            guard options.web != nil else { throw OptionValueError("'--tls-cert' serves the page: add --web") }
            options.tlsCertificate = tls.certificate
            options.tlsKey = tls.key
        }
        options.signing = try Signing.options(values)
        options.invisible = values.get(Camera.invisible)
        return options
    }
}
