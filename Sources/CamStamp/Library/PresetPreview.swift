// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// A preset drawn on a picture to look at before using it: `camstamp presets render` and the
/// pictures in docs/presets.md. The marks are those a photo would get, with sample values for
/// what only a photo has (its EXIF, date, file name), so `{exif:Model}` shows as a camera's name.
/// Any base picture will do (`render(on:)`); `sheet(width:height:layout:)` draws on the built-in
/// sample landscape, in landscape and portrait.
public final class PresetPreview {
    /// Which pictures a sheet holds.
    public enum Layout: String, CaseIterable, Sendable {
        /// The landscape picture and the portrait one, side by side.
        case both
        /// The landscape picture alone.
        case landscape
        /// The portrait picture alone.
        case portrait
    }

    /// The size of a sheet's pictures when none is given: a 3:2 photo.
    public static let defaultSize = (width: 1200, height: 800)
    /// When the sample photo was taken: `{date}`, `{time}` and `{now}` show this.
    public static let sampleDate = Date(timeIntervalSince1970: 1_778_780_528)  // 2026-05-14 17:42:08 UTC
    /// The EXIF values a sample photo has, as `{exif:TAG}` shows them.
    public static let sampleEXIF: [String: String] = [
        "Make": "Camstamp", "Model": "Sample S1", "LensModel": "35mm F1.8", "FNumber": "2.8",
        "ExposureTime": "1/250", "ISOSpeedRatings": "200", "FocalLength": "35",
        "DateTimeOriginal": "2026:05:14 17:42:08",
    ]
    /// The sample photo's file name, for `{filename}` and `{stem}`.
    public static let sampleFilename = "IMG_2041.jpg"

    /// The marks, with their variables.
    public let marker: FrameMarker

    /// Loads and checks the presets as `camstamp batch` does.
    ///
    /// - Parameters:
    ///   - presets: presets by name, path, JSON or value, stacked in order.
    ///   - variables: values for `{name}` in the marks, over the presets' own.
    ///   - resources: where the shipped presets and fonts are.
    /// - Throws: `CamStampError` of kind `.usage` for an unknown preset or a bad one.
    public init(
        presets: [PresetSource], variables: [String: String] = [:], resources: Resources? = Resources.locate()
    ) throws(CamStampError) {
        let assignments = variables.sorted { $0.key < $1.key }.map { VariableAssignment(key: $0.key, value: $0.value) }
        let (preset, overrides) = try MarkSetup.preset(
            sources: presets, text: nil, variables: assignments, resources: resources)
        marker = FrameMarker(preset: preset, variables: overrides)
    }

    /// What the marks see on a sample photo of `width`×`height`.
    public func sampleContext(width: Int, height: Int) -> TemplateContext {
        var context = marker.context(width: width, height: height, captureDate: Self.sampleDate)
        context.now = Self.sampleDate
        // The same picture on every machine: the sample's clock is UTC and its host a sample's.
        context.timeZone = TimeZone(identifier: "UTC")!
        context.hostname = "camstamp"
        context.filename = Self.sampleFilename
        context.stem = URL(fileURLWithPath: Self.sampleFilename).deletingPathExtension().lastPathComponent
        context.counter = 1
        context.exif = Self.sampleEXIF
        return context
    }

    /// Draws the marks on `base` (any picture: a live frame, a photo of the user's), with the
    /// sample values.
    public func render(on base: inout PixelBuffer) throws(CamStampError) {
        try marker.mark(&base, context: sampleContext(width: base.width, height: base.height))
    }

    /// The sample landscape of `width`×`height`, unmarked, as RGBx.
    public static func sampleScene(width: Int, height: Int) throws(CamStampError) -> PixelBuffer {
        try PixelBuffer(
            format: .rgbx, width: width, height: height,
            planes: [.init(bytes: SampleScene.rgbx(width: width, height: height), stride: 4 * width)])
    }

    /// The marks on the sample scene: a landscape picture of the long side of `width`×`height` by
    /// its short side, and a portrait one the other way round, each marked at its own size (as
    /// a photo of that size would be); with `.both`, side by side on a dark ground, tops aligned
    /// to the middle.
    public func sheet(
        width: Int = defaultSize.width, height: Int = defaultSize.height, layout: Layout = .both
    ) throws(CamStampError) -> PixelBuffer {
        let long = max(width, height), short = min(width, height)
        var landscape = try Self.sampleScene(width: long, height: short)
        var portrait = try Self.sampleScene(width: short, height: long)
        switch layout {
        case .landscape:
            try render(on: &landscape)
            return landscape
        case .portrait:
            try render(on: &portrait)
            return portrait
        case .both:
            try render(on: &landscape)
            try render(on: &portrait)
            let gap = max(8, short / 24)
            var sheet = try PixelBuffer(format: .rgbx, width: long + gap + short, height: long)
            sheet.planes[0].bytes = Self.ground(count: sheet.planes[0].bytes.count)
            Self.copy(landscape, into: &sheet, x: 0, y: (long - short) / 2)
            Self.copy(portrait, into: &sheet, x: long + gap, y: 0)
            return sheet
        }
    }

    /// `buffer` (RGBx, as `sheet` and `sampleScene` make) as a baseline JPEG.
    public static func jpeg(_ buffer: PixelBuffer, quality: Int = 85) throws(CamStampError) -> Data {
        guard buffer.format == .rgbx else {
            throw .usage("preset preview: an RGBx picture is needed, not \(buffer.format.rawValue)")
        }
        do {
            return try JPEGEncoder.encodeRGBx(
                buffer.planes[0].bytes, width: buffer.width, height: buffer.height, stride: buffer.planes[0].stride,
                quality: quality)
        } catch {
            throw .failure("cannot encode the preview: \(error)")
        }
    }

    /// The sheet's ground: a dark grey that neither mark colours nor the scene match.
    private static func ground(count: Int) -> [UInt8] {
        (0..<count).map { $0 % 4 == 3 ? 255 : 0x26 }
    }

    /// Copies the RGBx `picture` into `sheet` with its top-left corner at (x, y).
    private static func copy(_ picture: PixelBuffer, into sheet: inout PixelBuffer, x: Int, y: Int) {
        let rowBytes = 4 * picture.width, source = picture.planes[0], stride = sheet.planes[0].stride
        for row in 0..<picture.height {
            let from = row * source.stride, to = (y + row) * stride + 4 * x
            sheet.planes[0].bytes.replaceSubrange(to..<to + rowBytes, with: source.bytes[from..<from + rowBytes])
        }
    }
}
