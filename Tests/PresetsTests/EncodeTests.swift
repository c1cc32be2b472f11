import Foundation
import Testing
@testable import Presets

@Suite struct ResolvedJSONTests {
    static let presetsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("presets")

    @Test(arguments: ["credit", "timestamp", "logo", "proof", "caption-cn", "camera-info"])
    func everyShippedPresetRoundTripsThroughItsResolvedJSON(name: String) throws {
        let file = Self.presetsFolder.appendingPathComponent(name + ".json")
        let preset = try Preset.load(contentsOf: file)
        let json = preset.resolvedJSON()
        // Read back from the same folder, so relative image paths resolve the same way.
        let again = try Preset.decode(Data(json.utf8), source: file)
        #expect(again.marks == preset.marks)
        #expect(again.variables == preset.variables && again.name == preset.name && again.description == preset.description)
    }

    /// `presets show` writes every default out; reading that back must give the same marks. The
    /// default outline, shadow and box colours were 0.7, 0.5 and 0.35 opaque: written as #…B3,
    /// #…80 and #…59 they came back 179/255, 128/255 and 89/255, a different preset.
    @Test func defaultsRoundTrip() throws {
        let defaults = try Preset.decode(Data(#"{"marks": [{"text": "a", "shadow": true, "box": true, "tile": true}]}"#.utf8))
        for preset in [Preset.quickText("Hi"), defaults] {
            let again = try Preset.decode(Data(preset.resolvedJSON().utf8))
            #expect(again.marks == preset.marks, "\(preset.resolvedJSON())")
        }
    }

    /// A length too small for a plain decimal came out as "1e-05%", which no preset may say.
    @Test func smallLengthsAreWrittenAsPresetsSayThem() throws {
        let preset = try Preset.decode(Data(#"{"marks": [{"text": "a", "size": "0.00001%", "margin": ["0.000125px", 0]}]}"#.utf8))
        let json = preset.resolvedJSON()
        #expect(json.contains(#""size": "0.00001%""#) && json.contains(#""margin": ["0.000125px", "0px"]"#), "\(json)")
        #expect(try Preset.decode(Data(json.utf8)).marks == preset.marks)
    }

    @Test func defaultsAreSpelledOut() throws {
        let json = Preset.quickText("Hi \"there\"").resolvedJSON()
        #expect(json.contains(#""text": "Hi \"there\"""#))
        #expect(json.contains(#""size": "4%""#))
        #expect(json.contains(#""anchor": "bottom-right""#))
        #expect(json.contains(##""outline": { "color": "#000000B3", "width": "0.25%" }"##), "\(json)")
        #expect(json.contains(#""shadow": null"#))
    }
}

@Suite struct TextLimitTests {
    @Test func hugeSizesAndNULsAreRefusedWithTheirPath() {
        func check(_ json: String) -> String? {
            do { _ = try Preset.decode(Data(json.utf8)); return nil } catch { return error.description }
        }
        #expect(check(#"{"marks":[{"text":"a","size":1000000}]}"#)?.contains("size must be at most 8192 pixels at $.marks[0].size") == true)
        #expect(check(#"{"marks":[{"text":"a","size":"150%"}]}"#)?.contains("size must be at most 100% of the short side") == true)
        #expect(check(#"{"marks":[{"text":"a\u0000b"}]}"#)?.contains("must not contain a NUL") == true)
        #expect(check(#"{"marks":[{"text":"a","size":"100%"}]}"#) == nil)
    }
}
