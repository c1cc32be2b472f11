// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

@Suite struct ValuesTests {
    @Test(arguments: [
        ("12px", Length.px(12)), ("4%", .percent(4)), ("0.25%", .percent(0.25)), ("-3px", .px(-3)),
        ("7", .px(7)), ("-1.5%", .percent(-1.5)), (".5%", .percent(0.5)),
    ])
    func parsesLengths(text: String, expected: Length) {
        #expect(Length(parsing: text) == expected)
    }

    @Test(arguments: ["", "%", "px", "4 %", "4pt", "4em", "1e3px", "--1%", "1.2.3px", "abc", "NaN", "inf%"])
    func rejectsLengths(text: String) {
        #expect(Length(parsing: text) == nil)
    }

    @Test func lengthPixels() {
        #expect(Length.percent(4).pixels(shortSide: 1080) == 43.2)
        #expect(Length.px(12).pixels(shortSide: 1080) == 12)
        #expect(Length.percent(10).description == "10%")
        #expect(Length.px(2.5).description == "2.5px")
    }

    @Test func parsesColours() {
        #expect(Color(hex: "#FFF") == Color.white)
        #expect(Color(hex: "#000000") == Color.black)
        #expect(Color(hex: "#ff000080") == Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255))
        #expect(Color(hex: "#1A2b3C")?.hexString == "#1A2B3CFF")
        #expect(Color(hex: "#00000059")?.alpha == 89.0 / 255)
    }

    @Test(arguments: ["red", "#GGG", "#1234", "#12345", "FFFFFF", "#", "#1234567", "#123456789", " #FFF"])
    func rejectsColours(text: String) {
        #expect(Color(hex: text) == nil)
    }

    @Test func weights() {
        #expect(FontWeight(name: "thin")?.value == 100)
        #expect(FontWeight(name: "SemiBold")?.value == 600)
        #expect(FontWeight(name: "heavy")?.value == 900)
        #expect(FontWeight(name: "black")?.value == 900)
        #expect(FontWeight(name: "fat") == nil)
    }

    @Test func editDistances() {
        #expect(editDistance("colour", "color") == 1)
        #expect(editDistance("bottom-rigth", "bottom-right") == 1)
        #expect(editDistance("", "abc") == 3)
        #expect(closest(to: "sise", in: ["size", "font"]) == "size")
        #expect(closest(to: "zzzzzz", in: ["size", "font"]) == nil)
        #expect(editDistance("qaulity", "quality") == 1)
        #expect(closest(to: "SIZE", in: ["quality", "size"]) == "size")
        #expect(closest(to: "taxi", in: ["text", "size"]) == nil, "two of four letters changed is another word")
        #expect(closest(to: "qual", in: ["quality", "size"]) == "quality", "a unique start")
        #expect(closest(to: "", in: ["a", "b"]) == nil)
    }
}

@Suite struct PlainDecimalTests {
    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (4, "4"), (-30, "-30"), (0.25, "0.25"), (1e-5, "0.00001"), (-1.25e-7, "-0.000000125"),
        (1e16, "10000000000000000"), (1.0000000000000005e15, "1000000000000000.5"), (123.456, "123.456"),
    ])
    func writesPlainDecimals(value: Double, text: String) {
        #expect(value.plainDecimal == text)
        #expect(Double(text) == value)
    }
}
