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
