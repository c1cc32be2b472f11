// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Every tag exiftool reads in `file`, as `Group1:Name` → value text (duplicates kept apart by
/// `-a`, composite tags included).
func exiftoolTags(_ file: URL) throws -> [String: String] {
    let json = try exiftool(["-j", "-a", "-G1", "-s", file.path])
    let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    return try #require(objects.first).mapValues { "\($0)" }
}

/// The tags a location could hide in, by name: coordinates, altitudes, places.
func locationTags(_ tags: [String: String]) -> [String: String] {
    tags.filter { key, _ in
        key.range(
            of: #"gps|latitude|longitude|longtitude|altitude|city|location|country|state|province"#,
            options: [.regularExpression, .caseInsensitive]) != nil
    }
}

@Suite struct XMPIPTCEndToEndTests {
    /// A packet as phones, drones and editors write them: GPS under a non-standard prefix for
    /// the exif namespace (`loc:`), DJI drone tags under `dji:`, IPTC Core and Extension place
    /// names, Photoshop place names, an XMP thumbnail, a struct holding GPS, and the orientation.
    static let xmp = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:loc="http://ns.adobe.com/exif/1.0/"
            xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
            xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" xmlns:dji="http://www.dji.com/drone-dji/1.0/"
            xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpGImg="http://ns.adobe.com/xap/1.0/g/img/"
            xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:dc="http://purl.org/dc/elements/1.1/"
            tiff:Orientation="6" loc:GPSLatitude="33,51.358S" loc:GPSLongitude="70,39.6W" loc:GPSAltitude="1234/10"
            photoshop:City="Valparaiso" photoshop:State="Region V" photoshop:Country="Chile"
            Iptc4xmpCore:Location="Cerro Alegre" Iptc4xmpCore:CountryCode="CL"
            dji:GpsLatitude="-33.0458" dji:GpsLongtitude="-71.6197" dji:AbsoluteAltitude="+120.5" dji:GimbalYawDegree="+12.3">
           <Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource">
            <Iptc4xmpExt:City>Valparaiso</Iptc4xmpExt:City><Iptc4xmpExt:Sublocation>Paseo Gervasoni</Iptc4xmpExt:Sublocation>
           </rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>
           <Iptc4xmpExt:LocationCreated><rdf:Bag><rdf:li rdf:parseType="Resource">
            <Iptc4xmpExt:ProvinceState>Region V</Iptc4xmpExt:ProvinceState>
           </rdf:li></rdf:Bag></Iptc4xmpExt:LocationCreated>
           <xmp:Thumbnails><rdf:Alt><rdf:li rdf:parseType="Resource">
            <xmpGImg:format>JPEG</xmpGImg:format><xmpGImg:image>VEhVTUJOQUlMLU9GLVRIRS1VTk1BUktFRA==</xmpGImg:image>
           </rdf:li></rdf:Alt></xmp:Thumbnails>
           <xmpMM:History><rdf:Seq><rdf:li rdf:parseType="Resource">
            <xmpMM:action>saved</xmpMM:action><loc:GPSLatitude>12,34.5N</loc:GPSLatitude>
           </rdf:li></rdf:Seq></xmpMM:History>
           <dc:creator><rdf:Seq><rdf:li>Jane Doe</rdf:li></rdf:Seq></dc:creator>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """

    /// Place names and coordinates of the sources, as text, which no output may contain.
    static let placeText = [
        "Valparaiso", "Region V", "Chile", "Cerro Alegre", "Gervasoni", "CHL", "33,51", "70,39",
        "-33.0458", "-71.6197", "120.5", "12,34.5",
    ]

    /// A camera JPEG (EXIF with GPS, Model, DateTimeOriginal; ExposureTime, IPTC place names and
    /// credit added by exiftool), with `xmp` as its XMP packet when given.
    func source(in folder: URL, xmp: String? = Self.xmp, iptc: Bool = true) throws -> URL {
        let url = try put(
            PhotoFixtures.jpeg(width: 64, height: 48, orientation: 6, exif: PhotoFixtures.exif(orientation: 6)),
            "in/photo.jpg", in: folder)
        var arguments = ["-overwrite_original", "-EXIF:ExposureTime=1/125"]
        if iptc {
            arguments += [
                "-IPTC:City=Valparaiso", "-IPTC:Sub-location=Cerro Alegre", "-IPTC:Province-State=Region V",
                "-IPTC:Country-PrimaryLocationName=Chile", "-IPTC:Country-PrimaryLocationCode=CHL",
                "-IPTC:By-line=Jane Doe", "-IPTC:ObjectName=Harbour at dawn",
            ]
        }
        try exiftool(arguments + [url.path])
        if let xmp {
            // The packet goes in as written (exiftool would re-serialize it with standard prefixes).
            var data = try Data(contentsOf: url)
            let payload = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8)
            data.insert(
                contentsOf: [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload,
                at: 2)
            try data.write(to: url)
        }
        return url
    }

    @Test func stripGPSLeavesNoLocationAnywhereAndKeepsTheCamera() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try source(in: folder)
        let before = try exiftoolTags(input)
        // The referee sees the location in the source, under every name the output must lose.
        for tag in [
            "XMP-exif:GPSLatitude", "XMP-drone-dji:GPSLatitude", "XMP-drone-dji:AbsoluteAltitude", "XMP-photoshop:City",
            "XMP-iptcCore:Location", "XMP-iptcExt:LocationShownCity", "XMP-iptcExt:LocationCreatedProvinceState",
            "IPTC:City", "IPTC:Sub-location", "IPTC:Province-State", "IPTC:Country-PrimaryLocationName",
            "GPS:GPSLatitude", "XMP-xmp:ThumbnailImage", "XMP-xmpMM:HistoryGPSLatitude",
        ] {
            #expect(
                before[tag] != nil, "the source lacks \(tag): \(before.keys.sorted().filter { $0.hasPrefix("XMP") })")
        }

        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK", "--strip-gps"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("camstamp: ") || $0.hasSuffix("skipped") },
            "nothing raw from exiv2: \(result.stderr)")
        let output = out.appendingPathComponent("photo.jpg")
        let tags = try exiftoolTags(output)
        #expect(locationTags(tags).isEmpty, "location left: \(locationTags(tags))")
        #expect(tags.keys.filter { $0.contains("Thumbnail") }.isEmpty, "\(tags.keys.sorted())")
        #expect(tags["IFD0:Model"] == "Fixture Cam 1")
        #expect(tags["ExifIFD:DateTimeOriginal"] == "2024:05:06 07:08:09")
        #expect(tags["ExifIFD:ExposureTime"] == "1/125")
        // Stamped in its coefficients, the photo keeps its stored pixels, so XMP keeps saying how to turn them.
        #expect(tags["XMP-tiff:Orientation"] == "Rotate 90 CW" && tags["IFD0:Orientation"] == "Rotate 90 CW")
        #expect(tags["XMP-drone-dji:GimbalYawDegree"] == "+12.3", "DJI's camera angles are not location")
        #expect(tags["XMP-dc:Creator"] == "Jane Doe" && tags["IPTC:By-line"] == "Jane Doe")
        #expect(tags["IPTC:ObjectName"] == "Harbour at dawn")
        let bytes = try Data(contentsOf: output)
        for text in Self.placeText + ["VEhVTUJOQUlM"] {
            #expect(bytes.range(of: Data(text.utf8)) == nil, "\(text) is in the output's bytes")
        }
    }

    @Test func aPNGOutputGetsTheEditedXMPToo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try source(in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", input.path, "-o", out.path, "--text", "MARK", "--format", "png", "--strip-gps",
            "--set-metadata", "Artist=Ana",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = out.appendingPathComponent("photo.png")
        let tags = try exiftoolTags(output)
        #expect(locationTags(tags).isEmpty, "location left: \(locationTags(tags))")
        #expect(tags["XMP-dc:Creator"] == "Ana" && tags["XMP-tiff:Orientation"] == "Horizontal (normal)")
        #expect(tags["XMP-drone-dji:GimbalYawDegree"] == "+12.3")
        let bytes = try Data(contentsOf: output)
        for text in Self.placeText + ["VEhVTUJOQUlM"] {
            #expect(bytes.range(of: Data(text.utf8)) == nil, "\(text) is in the output's bytes")
        }
    }

    @Test func keepCarriesTheLocationButNotTheThumbnail() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try source(in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let tags = try exiftoolTags(out.appendingPathComponent("photo.jpg"))
        #expect(tags["XMP-photoshop:City"] == "Valparaiso" && tags["IPTC:City"] == "Valparaiso")
        #expect(tags["XMP-drone-dji:GPSLatitude"] != nil)
        // Stamped in its coefficients, the photo keeps its stored pixels, so XMP keeps saying how to turn them.
        #expect(tags["XMP-tiff:Orientation"] == "Rotate 90 CW" && tags["IFD0:Orientation"] == "Rotate 90 CW")
        #expect(tags.keys.filter { $0.contains("Thumbnail") }.isEmpty, "\(tags.keys.sorted())")
    }

    @Test func setMetadataWritesTheCreditIntoXMPAndIPTC() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let withIPTC = try source(in: folder)
        let bare = try put(
            PhotoFixtures.jpeg(width: 64, height: 48, orientation: 1, exif: PhotoFixtures.exif(orientation: 1)),
            "in/bare.jpg", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", withIPTC.path, bare.path, "-o", out.path, "--text", "© {author}",
            "--var", "author=Ana Pérez", "--set-metadata", "Artist={author}",
            "--set-metadata", "copyright=© {date:%Y} {author}, {exif:Model}",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let tags = try exiftoolTags(out.appendingPathComponent("photo.jpg"))
        #expect(tags["XMP-dc:Creator"] == "Ana Pérez", "replaces Jane Doe")
        #expect(tags["XMP-dc:Rights"] == "© 2024 Ana Pérez, Fixture Cam 1")
        #expect(tags["IPTC:By-line"] == "Ana Pérez")
        #expect(tags["IPTC:CopyrightNotice"] == "© 2024 Ana Pérez, Fixture Cam 1")
        #expect(tags["IPTC:CodedCharacterSet"] == "UTF8")
        #expect(tags["IPTC:City"] == "Valparaiso", "the rest of the IPTC stays")
        #expect(tags["IFD0:Artist"] == "Ana Pérez")
        #expect(tags["IFD0:Copyright"] == "© 2024 Ana Pérez, Fixture Cam 1")

        // A photo without XMP or IPTC gets an XMP packet with the credit, and no IPTC.
        let bareTags = try exiftoolTags(out.appendingPathComponent("bare.jpg"))
        #expect(bareTags["XMP-dc:Creator"] == "Ana Pérez")
        #expect(bareTags["XMP-dc:Rights"] == "© 2024 Ana Pérez, Fixture Cam 1")
        #expect(bareTags.keys.filter { $0.hasPrefix("IPTC:") }.isEmpty)
    }

    /// IIM gives CopyrightNotice 128 bytes and By-line 32: a 6,000-byte credit was written into
    /// IPTC whole. It is cut there at a character's end, one warning a field; XMP and EXIF keep
    /// it whole.
    @Test func aCreditLongerThanIIMAllowsIsCutInIPTCWithAWarning() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try source(in: folder)
        let out = folder.appendingPathComponent("out")
        let copyright = String(repeating: "© Ana Pérez ", count: 300)  // 4,200 bytes
        let artist = "Ana María Pérez de la Fuente Ñúñez"
        let result = try camstamp([
            "batch", input.path, "-o", out.path, "--text", "a",
            "--set-metadata", "Artist=\(artist)", "--set-metadata", "Copyright=\(copyright)",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let cut = "the most IIM allows it (XMP and EXIF hold it whole)"
        #expect(
            result.stderr == "camstamp: \(input.path): warning: IPTC By-line cut to 32 bytes, \(cut); "
                + "IPTC CopyrightNotice cut to 128 bytes, \(cut)\n1 marked, 0 failed, 0 skipped\n")
        let tags = try exiftoolTags(out.appendingPathComponent("photo.jpg"))
        #expect(tags["IPTC:By-line"] == "Ana María Pérez de la Fuente ", "cut before the two bytes of Ñ")
        let notice = try #require(tags["IPTC:CopyrightNotice"])
        #expect(notice.utf8.count <= 128 && notice.utf8.count >= 120 && copyright.hasPrefix(notice), "\(notice)")
        #expect(tags["XMP-dc:Rights"] == copyright)
        #expect(tags["IFD0:Copyright"] == copyright.trimmingCharacters(in: .whitespaces), "exiftool trims EXIF text")
        #expect(tags["XMP-dc:Creator"] == artist)
        #expect(
            try exiftool(["-validate", "-warning", "-a", out.appendingPathComponent("photo.jpg").path])
                .contains("exceeds length limit") == false)
    }

    @Test func setMetadataErrorsAreUsageErrors() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try source(in: folder, xmp: nil, iptc: false)
        let out = folder.appendingPathComponent("out").path
        let unknownKey = try camstamp(["batch", input.path, "-o", out, "--text", "x", "--set-metadata", "Autor=me"])
        #expect(unknownKey.status == 64)
        #expect(unknownKey.stderr == "camstamp: unknown key 'Autor' for '--set-metadata': use Artist or Copyright\n")
        let unknownVariable = try camstamp([
            "batch", input.path, "-o", out, "--text", "x", "--set-metadata", "Artist={autor}",
        ])
        #expect(unknownVariable.status == 64)
        #expect(
            unknownVariable.stderr.hasPrefix("camstamp: --set-metadata Artist: unknown variable '{autor}'"),
            "\(unknownVariable.stderr)")
        #expect(unknownVariable.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out + "/photo.jpg"))
    }

    @Test func malformedXMPIsLeftOutWithOneWarningAndThePhotoIsStamped() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken =
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description photoshop:City="Valparaiso"/></rdf:RDF></x:xmpmeta>"#
        let input = try source(in: folder, xmp: broken, iptc: false)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK", "--strip-gps"])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.first
                == "camstamp: \(input.path): warning: XMP left out: it is not valid XMP (Invalid XML at line 1, column 101: unbound prefix)",
            "\(result.stderr)")
        #expect(lines.count == 2 && lines.last == "1 marked, 0 failed, 0 skipped")
        let output = out.appendingPathComponent("photo.jpg")
        #expect(try upright(output).width == 64, "stamped, and upright as a viewer shows it")
        #expect(try exiftoolTags(output).keys.filter { $0.hasPrefix("XMP") }.isEmpty)
        #expect(try Data(contentsOf: output).range(of: Data("Valparaiso".utf8)) == nil)
    }
}
