// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import PhotoMetadata

@Suite struct XMPTests {
    /// A phone/editor packet: location under a non-standard prefix for the exif namespace
    /// (`loc:`), IPTC place names in both schemas, a DJI drone block, an XMP thumbnail, GPS inside
    /// a History-like struct, and what must stay (camera, date, exposure, creator).
    static let located = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:loc="http://ns.adobe.com/exif/1.0/"
            xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/"
            xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" xmlns:dji="http://www.dji.com/drone-dji/1.0/"
            xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpGImg="http://ns.adobe.com/xap/1.0/g/img/"
            xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:dc="http://purl.org/dc/elements/1.1/"
            tiff:Make="Canon" tiff:Model="Canon EOS R6" tiff:Orientation="6"
            loc:GPSLatitude="33,51.358S" loc:GPSLongitude="70,39.6W" loc:ExposureTime="1/125"
            loc:DateTimeOriginal="2026-03-14T15:09:26" loc:PixelXDimension="6000" loc:PixelYDimension="4000"
            photoshop:City="Valparaiso" photoshop:State="Region V" photoshop:Country="Chile"
            photoshop:Credit="Studio" Iptc4xmpCore:Location="Cerro Alegre" Iptc4xmpCore:CountryCode="CL"
            dji:GpsLatitude="-33.0458" dji:GpsLongtitude="-71.6197" dji:AbsoluteAltitude="+120.5" dji:GimbalYawDegree="+12.3">
           <Iptc4xmpExt:LocationShown>
            <rdf:Bag>
             <rdf:li rdf:parseType="Resource">
              <Iptc4xmpExt:City>Valparaiso</Iptc4xmpExt:City>
              <loc:GPSLatitude>33,2.75S</loc:GPSLatitude>
             </rdf:li>
            </rdf:Bag>
           </Iptc4xmpExt:LocationShown>
           <Iptc4xmpExt:LocationCreated>
            <rdf:Bag><rdf:li rdf:parseType="Resource"><Iptc4xmpExt:Sublocation>Paseo Gervasoni</Iptc4xmpExt:Sublocation></rdf:li></rdf:Bag>
           </Iptc4xmpExt:LocationCreated>
           <xmp:Thumbnails>
            <rdf:Alt><rdf:li rdf:parseType="Resource">
             <xmpGImg:format>JPEG</xmpGImg:format><xmpGImg:image>VEhVTUJOQUlMLU9GLVRIRS1VTk1BUktFRA==</xmpGImg:image>
            </rdf:li></rdf:Alt>
           </xmp:Thumbnails>
           <xmpMM:History>
            <rdf:Seq><rdf:li rdf:parseType="Resource"><xmpMM:action>saved</xmpMM:action><loc:GPSAltitude>1205/10</loc:GPSAltitude></rdf:li></rdf:Seq>
           </xmpMM:History>
           <dc:creator><rdf:Seq><rdf:li>Jane Doe</rdf:li></rdf:Seq></dc:creator>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """

    func edit(
        _ packet: String?, size: PixelSize? = nil, stripGPS: Bool, edits: MetadataEdits = MetadataEdits()
    ) throws -> String? {
        switch try XMPEdit.forOutput(packet.map { Data($0.utf8) }, size: size, stripGPS: stripGPS, edits: edits) {
        case .unchanged: return packet
        case .edited(let data): return data.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test func stripGPSRemovesLocationUnderAnyPrefixAndKeepsTheCamera() throws {
        let out = try #require(try edit(Self.located, stripGPS: true))
        for gone in [
            "33,51", "70,39", "Valparaiso", "Region V", "Chile", "Cerro Alegre", "CountryCode", "-33.0458",
            "-71.6197", "120.5", "Paseo Gervasoni", "LocationShown", "LocationCreated", "GPS", "Gps", "1205/10",
        ] {
            #expect(!out.contains(gone), "\(gone) left in\n\(out)")
        }
        for kept in ["Canon EOS R6", "1/125", "2026-03-14T15:09:26", "Jane Doe", "GimbalYawDegree", "saved", "Studio"] {
            #expect(out.contains(kept), "\(kept) lost\n\(out)")
        }
    }

    @Test func thumbnailsGoAndOrientationBecomesOneEvenWhenKeepingGPS() throws {
        let out = try #require(try edit(Self.located, size: PixelSize(width: 400, height: 600), stripGPS: false))
        #expect(!out.contains("VEhVTUJOQUlM") && !out.contains("Thumbnails"))
        #expect(out.contains("Valparaiso") && out.contains("33,51.358S"), "location kept without stripGPS")
        #expect(!out.contains(#"Orientation="6""#) && !out.contains(">6<"))
        #expect(out.contains(#"tiff:Orientation="1""#) || out.contains("<tiff:Orientation>1</tiff:Orientation>"))
        #expect(out.contains("400") && out.contains("600") && !out.contains("6000"), "the stated size is the output's")
    }

    @Test func aPacketWithNothingToEditIsCarriedByteForByte() throws {
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="5"/></rdf:RDF></x:xmpmeta>
            """
        #expect(try XMPEdit.forOutput(Data(xmp.utf8), size: nil, stripGPS: true, edits: MetadataEdits()) == .unchanged)
    }

    @Test func theCreditReplacesCreatorAndRights() throws {
        let edits = MetadataEdits(artist: "Ana Pérez", copyright: #"lang="x" © 2026 Ana Pérez"#)
        let out = try #require(try edit(Self.located, stripGPS: false, edits: edits))
        #expect(out.contains("<rdf:li>Ana Pérez</rdf:li>") && !out.contains("Jane Doe"))
        #expect(out.contains(#"<rdf:li xml:lang="x-default">lang="x" © 2026 Ana Pérez</rdf:li>"#), "\(out)")
    }

    /// exiv2 knows MicrosoftPhoto as `http://ns.microsoft.com/photo/1.0/` and wrote the camera's
    /// `…/1.0` so: exiftool then warned "Fixed incorrect URI" on a Nikon photo given a credit.
    @Test func namespaceURIsStayAsTheSourceSpeltThem() throws {
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:MicrosoftPhoto="http://ns.microsoft.com/photo/1.0"
             MicrosoftPhoto:RatingPercent="60"/></rdf:RDF></x:xmpmeta>
            """
        let out = try #require(try edit(xmp, stripGPS: false, edits: MetadataEdits(artist: "Ana")))
        #expect(out.contains(#"xmlns:MicrosoftPhoto="http://ns.microsoft.com/photo/1.0""#), "\(out)")
        #expect(out.contains("60") && out.contains("Ana"))
    }

    @Test func theCreditMakesAPacketWhenThePhotoHasNone() throws {
        let out = try #require(try edit(nil, stripGPS: true, edits: MetadataEdits(copyright: "© Studio")))
        #expect(out.hasPrefix("<?xpacket"))
        #expect(out.contains("© Studio"))
        #expect(try edit(nil, stripGPS: true) == nil)
    }

    @Test func malformedXMPIsATypedError() {
        let broken = Data(
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description></rdf:RDF>"#
                .utf8)
        #expect {
            try XMPEdit.forOutput(broken, size: nil, stripGPS: false, edits: MetadataEdits())
        } throws: { error in
            guard case .unparsable(let why) = error as? Exiv2Error else { return false }
            return why.contains("Invalid XML") && !why.contains("\n")
        }
    }

    @Test func malformedXMPIsLeftOutOfTheOutputWithOneWarning() throws {
        var m = ImageMetadata()
        m.xmp = Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description/></rdf:RDF></x:xmpmeta>"#.utf8)
        let encoded = Data(tinyJPEG())
        let out = try m.insert(into: encoded, stripGPS: false)
        #expect(out.data == encoded, "nothing written")
        #expect(out.warnings.count == 1)
        guard case .xmpUnreadable(.unparsable(let why)) = out.warnings.first else {
            Issue.record("\(out.warnings)")
            return
        }
        #expect(out.warnings[0].description == "XMP left out: it is not valid XMP (\(why))")
        #expect(why.hasPrefix("Invalid XML at line 1, column") && !why.contains("\n"), "\(why)")

        // The credit still goes into XMP, in a packet of its own.
        let credited = try m.insert(into: encoded, stripGPS: false, edits: MetadataEdits(artist: "Ana"))
        #expect(credited.warnings == out.warnings)
        let xmp = String(decoding: try #require(try ImageMetadata(jpeg: credited.data).xmp), as: UTF8.self)
        #expect(xmp.contains("<rdf:li>Ana</rdf:li>"))
    }

    @Test func errorsReadAsOneLine() {
        let errors: [Exiv2Error] = [
            .initialization, .open(code: 11, message: "The file contains data of an unknown image type"),
            .unparsable("Invalid XML at line 1, column 9: unbound prefix"),
            .tag(key: "Xmp.dc.creator", message: "Invalid key"), .serialize("XMP Toolkit error 102"),
            .tooManyRemovals(30_000, of: 40_000),
        ]
        for error in errors {
            #expect(!error.description.contains("\n") && !error.description.isEmpty)
        }
        #expect(
            MetadataWarning.xmpUnreadable(.tooManyRemovals(30_000, of: 40_000)).description
                == "XMP left out: 30000 of its 40000 properties are to be removed, too many to do quickly")
    }

    @Test func keyPathsSplitIntoSteps() throws {
        let path = try #require(XMPKeyPath("Xmp.xmpMM.Pantry[1]/iptcExt:LocationShown[2]/exif:GPSLatitude/?xml:lang"))
        #expect(path.steps.map(\.prefix) == ["xmpMM", "iptcExt", "exif"])
        #expect(path.steps.map(\.name) == ["Pantry", "LocationShown", "GPSLatitude"])
        #expect(
            path.steps.map(\.key) == [
                "Xmp.xmpMM.Pantry", "Xmp.xmpMM.Pantry[1]/iptcExt:LocationShown",
                "Xmp.xmpMM.Pantry[1]/iptcExt:LocationShown[2]/exif:GPSLatitude",
            ])
    }

    /// 1 MB of XMP in the shapes that hurt: a packet of spaces (the regex this replaces took 305 s
    /// of CPU on 60 KB of them), Photoshop's DocumentAncestors bloat with a few locations among
    /// it, and thousands of location structs, which are left out rather than removed one by one.
    /// The guard is generous; the times are printed for the record.
    @Test(.timeLimit(.minutes(1))) func oneMegabyteOfXMPIsQuick() throws {
        let head =
            #"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" tiff:Orientation="6" exif:GPSLatitude="1,2N">"#
        let tail = "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>"
        func locations(_ count: Int) -> String {
            let items = (0..<count).map {
                "<rdf:li rdf:parseType=\"Resource\"><Iptc4xmpExt:City>Town \($0)</Iptc4xmpExt:City><exif:GPSLatitude>\($0),1N</exif:GPSLatitude></rdf:li>"
            }
            return "<Iptc4xmpExt:LocationShown><rdf:Bag>\(items.joined())</rdf:Bag></Iptc4xmpExt:LocationShown>"
        }
        var ancestors = ""
        while ancestors.utf8.count < 1_000_000 { ancestors += "<rdf:li>xmp.did:\(UUID().uuidString)</rdf:li>" }
        let shapes = [
            ("spaces", head + String(repeating: " ", count: 1_000_000) + tail),
            (
                "DocumentAncestors",
                head + locations(3)
                    + "<photoshop:DocumentAncestors><rdf:Bag>\(ancestors)</rdf:Bag></photoshop:DocumentAncestors>"
                    + tail
            ),
            ("10000 locations", head + locations(10_000) + tail),
        ]
        for (name, packet) in shapes {
            #expect(packet.utf8.count >= 1_000_000)
            let start = ContinuousClock.now
            let result = Result { try edit(packet, stripGPS: true) }
            print("1 MB XMP, \(name): \(ContinuousClock.now - start)")
            if name.hasSuffix("locations") {
                guard case .failure(Exiv2Error.tooManyRemovals) = result else {
                    Issue.record("\(result)")
                    continue
                }
            } else {
                let out = try #require(try result.get())
                #expect(!out.contains("GPS") && !out.contains("Town 1"))
                #expect(!out.contains(#"Orientation="6""#))
            }
        }
    }
}
