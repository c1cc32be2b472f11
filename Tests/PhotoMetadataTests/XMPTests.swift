import Foundation
import Testing
@testable import PhotoMetadata

@Suite struct XMPTests {
    static let attributeForm = """
    <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
        tiff:Make="Canon" tiff:Orientation="6" exif:GPSLatitude="33,51.358S"
        exif:GPSLongitude='70,39.6W' exif:FNumber="28/10"/>
     </rdf:RDF>
    </x:xmpmeta>
    <?xpacket end="w"?>
    """

    static let elementForm = """
    <x:xmpmeta xmlns:x="adobe:ns:meta/">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="">
       <tiff:Orientation>8</tiff:Orientation>
       <exif:GPSLatitude>33,51.358S</exif:GPSLatitude>
       <exif:GPSVersionID rdf:parseType="Literal">2.3.0.0</exif:GPSVersionID>
       <exif:GPSAltitude/>
       <exif:GPSTimeStamp>
        2026-03-14T15:09:26Z
       </exif:GPSTimeStamp>
       <exif:ExposureTime>1/125</exif:ExposureTime>
       <dc:creator><rdf:Seq><rdf:li>Jane Doe</rdf:li></rdf:Seq></dc:creator>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    """

    @Test func orientationAttributeBecomesOne() {
        let out = XMPEdit.forOutput(Self.attributeForm, stripGPS: false)
        #expect(XMPEdit.orientation(Self.attributeForm) == 6)
        #expect(XMPEdit.orientation(out) == 1)
        #expect(out.contains(#"tiff:Orientation="1""#))
        #expect(out.contains("exif:GPSLatitude"), "GPS kept without stripGPS")
        #expect(out.count == Self.attributeForm.count, "nothing else changes")
    }

    @Test func orientationElementBecomesOne() {
        let out = XMPEdit.forOutput(Self.elementForm, stripGPS: false)
        #expect(out.contains("<tiff:Orientation>1</tiff:Orientation>"))
        #expect(out.replacingOccurrences(of: ">1</tiff", with: ">8</tiff") == Self.elementForm)
    }

    @Test func stripGPSRemovesAttributes() {
        let out = XMPEdit.forOutput(Self.attributeForm, stripGPS: true)
        #expect(!out.contains("GPS"))
        #expect(out.contains(#"tiff:Make="Canon""#))
        #expect(out.contains(#"exif:FNumber="28/10"/>"#))
    }

    @Test func stripGPSRemovesElements() {
        let out = XMPEdit.forOutput(Self.elementForm, stripGPS: true)
        #expect(!out.contains("GPS"))
        #expect(!out.contains("2026-03-14T15:09:26Z"))
        #expect(out.contains("<exif:ExposureTime>1/125</exif:ExposureTime>"))
        #expect(out.contains("<rdf:li>Jane Doe</rdf:li>"))
        #expect(out.contains("<tiff:Orientation>1</tiff:Orientation>\n   <exif:ExposureTime>"))
    }

    @Test func packetWithoutOrientationIsUnchanged() {
        let xmp = #"<x:xmpmeta><rdf:Description xmp:Rating="5"/></x:xmpmeta>"#
        #expect(XMPEdit.forOutput(xmp, stripGPS: true) == xmp)
    }
}
