// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// EXIF tag names (as in the EXIF 2.32 specification) and the `{exif:TAG}` text of their values.
enum EXIFTags {
    static let ifd0: [UInt16: String] = [
        0x0100: "ImageWidth", 0x0101: "ImageLength", 0x0102: "BitsPerSample", 0x0103: "Compression",
        0x0106: "PhotometricInterpretation", 0x010E: "ImageDescription", 0x010F: "Make", 0x0110: "Model",
        0x0111: "StripOffsets", 0x0112: "Orientation", 0x0115: "SamplesPerPixel", 0x0116: "RowsPerStrip",
        0x0117: "StripByteCounts", 0x011A: "XResolution", 0x011B: "YResolution", 0x011C: "PlanarConfiguration",
        0x0128: "ResolutionUnit", 0x012D: "TransferFunction", 0x0131: "Software", 0x0132: "DateTime",
        0x013B: "Artist", 0x013C: "HostComputer", 0x013E: "WhitePoint", 0x013F: "PrimaryChromaticities",
        0x0201: "JPEGInterchangeFormat", 0x0202: "JPEGInterchangeFormatLength", 0x0211: "YCbCrCoefficients",
        0x0212: "YCbCrSubSampling", 0x0213: "YCbCrPositioning", 0x0214: "ReferenceBlackWhite",
        0x02BC: "ApplicationNotes", 0x4746: "Rating", 0x8298: "Copyright", 0x8769: "ExifIFDPointer",
        0x8825: "GPSInfoIFDPointer", 0x9C9B: "XPTitle", 0x9C9C: "XPComment", 0x9C9D: "XPAuthor",
    ]

    static let exif: [UInt16: String] = [
        0x829A: "ExposureTime", 0x829D: "FNumber", 0x8822: "ExposureProgram", 0x8824: "SpectralSensitivity",
        0x8827: "ISOSpeedRatings", 0x8828: "OECF", 0x8830: "SensitivityType", 0x8831: "StandardOutputSensitivity",
        0x8832: "RecommendedExposureIndex", 0x8833: "ISOSpeed", 0x9000: "ExifVersion",
        0x9003: "DateTimeOriginal", 0x9004: "DateTimeDigitized", 0x9010: "OffsetTime",
        0x9011: "OffsetTimeOriginal", 0x9012: "OffsetTimeDigitized", 0x9101: "ComponentsConfiguration",
        0x9102: "CompressedBitsPerPixel", 0x9201: "ShutterSpeedValue", 0x9202: "ApertureValue",
        0x9203: "BrightnessValue", 0x9204: "ExposureBiasValue", 0x9205: "MaxApertureValue",
        0x9206: "SubjectDistance", 0x9207: "MeteringMode", 0x9208: "LightSource", 0x9209: "Flash",
        0x920A: "FocalLength", 0x9214: "SubjectArea", 0x927C: "MakerNote", 0x9286: "UserComment",
        0x9290: "SubSecTime", 0x9291: "SubSecTimeOriginal", 0x9292: "SubSecTimeDigitized",
        0x9400: "Temperature", 0x9401: "Humidity", 0x9402: "Pressure", 0x9403: "WaterDepth",
        0x9404: "Acceleration", 0x9405: "CameraElevationAngle",
        0xA000: "FlashpixVersion", 0xA001: "ColorSpace", 0xA002: "PixelXDimension", 0xA003: "PixelYDimension",
        0xA004: "RelatedSoundFile", 0xA005: "InteroperabilityIFDPointer", 0xA20B: "FlashEnergy",
        0xA20E: "FocalPlaneXResolution", 0xA20F: "FocalPlaneYResolution", 0xA210: "FocalPlaneResolutionUnit",
        0xA214: "SubjectLocation", 0xA215: "ExposureIndex", 0xA217: "SensingMethod", 0xA300: "FileSource",
        0xA301: "SceneType", 0xA302: "CFAPattern", 0xA401: "CustomRendered", 0xA402: "ExposureMode",
        0xA403: "WhiteBalance", 0xA404: "DigitalZoomRatio", 0xA405: "FocalLengthIn35mmFilm",
        0xA406: "SceneCaptureType", 0xA407: "GainControl", 0xA408: "Contrast", 0xA409: "Saturation",
        0xA40A: "Sharpness", 0xA40B: "DeviceSettingDescription", 0xA40C: "SubjectDistanceRange",
        0xA420: "ImageUniqueID", 0xA430: "CameraOwnerName", 0xA431: "BodySerialNumber",
        0xA432: "LensSpecification", 0xA433: "LensMake", 0xA434: "LensModel", 0xA435: "LensSerialNumber",
        0xA460: "CompositeImage", 0xA500: "Gamma",
    ]

    static let gps: [UInt16: String] = [
        0x00: "GPSVersionID", 0x01: "GPSLatitudeRef", 0x02: "GPSLatitude", 0x03: "GPSLongitudeRef",
        0x04: "GPSLongitude", 0x05: "GPSAltitudeRef", 0x06: "GPSAltitude", 0x07: "GPSTimeStamp",
        0x08: "GPSSatellites", 0x09: "GPSStatus", 0x0A: "GPSMeasureMode", 0x0B: "GPSDOP", 0x0C: "GPSSpeedRef",
        0x0D: "GPSSpeed", 0x0E: "GPSTrackRef", 0x0F: "GPSTrack", 0x10: "GPSImgDirectionRef",
        0x11: "GPSImgDirection", 0x12: "GPSMapDatum", 0x13: "GPSDestLatitudeRef", 0x14: "GPSDestLatitude",
        0x15: "GPSDestLongitudeRef", 0x16: "GPSDestLongitude", 0x17: "GPSDestBearingRef",
        0x18: "GPSDestBearing", 0x19: "GPSDestDistanceRef", 0x1A: "GPSDestDistance",
        0x1B: "GPSProcessingMethod", 0x1C: "GPSAreaInformation", 0x1D: "GPSDateStamp", 0x1E: "GPSDifferential",
        0x1F: "GPSHPositioningError",
    ]

    static let interop: [UInt16: String] = [0x0001: "InteroperabilityIndex", 0x0002: "InteroperabilityVersion"]

    /// Other names users know from exiftool, each for a name above.
    static let aliases: [String: [String]] = [
        "ISOSpeedRatings": ["ISO", "PhotographicSensitivity"],
        "DateTimeDigitized": ["CreateDate"],
        "DateTime": ["ModifyDate"],
        "ImageLength": ["ImageHeight"],
        "PixelXDimension": ["ExifImageWidth"],
        "PixelYDimension": ["ExifImageHeight"],
        "FocalLengthIn35mmFilm": ["FocalLengthIn35mmFormat"],
        "ExposureBiasValue": ["ExposureCompensation"],
    ]

    /// Offsets into the EXIF block: meaningless as text, so never `{exif:TAG}` values.
    static let structural: Set<String> = [
        "ExifIFDPointer", "GPSInfoIFDPointer", "InteroperabilityIFDPointer", "JPEGInterchangeFormat",
        "JPEGInterchangeFormatLength", "StripOffsets", "StripByteCounts",
    ]

    /// UNDEFINED tags whose bytes are text.
    static let textualUndefined: Set<String> = ["ExifVersion", "FlashpixVersion", "InteroperabilityVersion"]

    static func name(_ tag: UInt16, in ifd: IFDKind) -> String? {
        switch ifd {
        case .ifd0, .ifd1: ifd0[tag]
        case .exif: exif[tag]
        case .gps: gps[tag]
        case .interop: interop[tag]
        }
    }
}

extension EXIF {
    /// Every named tag of IFD0, the Exif, GPS and Interop IFDs as `{exif:TAG}` text, plus aliases
    /// (`ISO`, `CreateDate`, ...). Blank text and binary values are left out, so they read as missing.
    public var values: [String: String] {
        var out: [String: String] = [:]
        for entry in entries where entry.ifd != .ifd1 {
            guard let name = entry.name, out[name] == nil, !EXIFTags.structural.contains(name),
                let text = formatted(entry, name: name)
            else { continue }
            out[name] = text
            for alias in EXIFTags.aliases[name] ?? [] where out[alias] == nil { out[alias] = text }
        }
        return out
    }

    /// `values` restricted to `names`; a name without a value is absent.
    public func values(names: some Sequence<String>) -> [String: String] {
        let all = values
        var out: [String: String] = [:]
        for name in names { out[name] = all[name] }
        return out
    }

    private func formatted(_ entry: EXIFEntry, name: String) -> String? {
        let value = value(entry)
        let text: String?
        switch (name, value) {
        case ("ExposureTime", .rational(let r)): text = r.first?.value.flatMap(Self.exposureTime)
        case ("FNumber", .rational(let r)), ("FocalLength", .rational(let r)):
            text = r.first?.value.map { decimal($0, 1) }
        case ("GPSLatitude", .rational(let r)): text = gpsDegrees(r, negativeRef: "S", refTag: 0x01)
        case ("GPSLongitude", .rational(let r)): text = gpsDegrees(r, negativeRef: "W", refTag: 0x03)
        case ("GPSAltitude", .rational(let r)):
            let below = self.entry(0x05, in: .gps).map { self.value($0) } == .bytes([1])
            text = r.first?.value.map { decimal(below ? -$0 : $0, 1) }
        case ("GPSTimeStamp", .rational(let r)) where r.count == 3:
            let parts = r.compactMap(\.value)
            text =
                parts.count == 3
                ? parts.map { $0 < 10 ? "0" + decimal($0, 2) : decimal($0, 2) }.joined(separator: ":") : nil
        case ("GPSVersionID", .bytes(let b)): text = b.map(String.init).joined(separator: ".")
        case ("UserComment", .bytes(let b)): text = Self.userComment(b)
        case (_, .ascii(let s)): text = s
        case (_, .unsigned(let v)): text = v.map(String.init).joined(separator: " ")
        case (_, .signed(let v)): text = v.map(String.init).joined(separator: " ")
        case (_, .rational(let r)):
            let numbers = r.compactMap(\.value)
            text = numbers.count == r.count ? numbers.map { decimal($0, 4) }.joined(separator: " ") : nil
        case (_, .real(let v)): text = v.map { decimal($0, 4) }.joined(separator: " ")
        case (_, .bytes(let b)):
            if EXIFTags.textualUndefined.contains(name) {
                text = decodeASCII(b[...])
            } else if entry.type == 1 {
                text = b.map(String.init).joined(separator: " ")
            } else {
                text = nil
            }
        }
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return text
    }

    /// "1/125" under a second, "2" or "2.5" from one second up.
    static func exposureTime(_ seconds: Double) -> String? {
        guard seconds > 0, seconds.isFinite else { return nil }
        return seconds >= 1 ? decimal(seconds, 1) : "1/" + decimal(1 / seconds, 1)
    }

    /// Degrees, minutes, seconds and the N/S or E/W reference as signed decimal degrees.
    private func gpsDegrees(_ dms: [Rational], negativeRef: String, refTag: UInt16) -> String? {
        let parts = dms.compactMap(\.value)
        guard !parts.isEmpty, parts.count == dms.count else { return nil }
        let degrees = parts.enumerated().reduce(0.0) { sum, p in sum + p.element / pow(60, Double(p.offset)) }
        guard let ref = entry(refTag, in: .gps), case .ascii(let r) = value(ref) else { return decimal(degrees, 6) }
        return decimal(r.uppercased().hasPrefix(negativeRef) ? -degrees : degrees, 6)
    }

    /// The text of a UserComment whose 8-byte character code is ASCII or undefined.
    static func userComment(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 8 else { return nil }
        let code = bytes[0..<8]
        guard code.elementsEqual(Array("ASCII".utf8) + [0, 0, 0]) || code.allSatisfy({ $0 == 0 }) else { return nil }
        return decodeASCII(bytes[8...]).trimmingCharacters(in: .whitespaces)
    }
}

/// `x` with at most `digits` fraction digits and no trailing zeros: 2.8, 50, 48.858222.
func decimal(_ x: Double, _ digits: Int) -> String {
    var s = String(format: "%.\(digits)f", x)
    if s.contains(".") {
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
    }
    return s == "-0" ? "0" : s
}
