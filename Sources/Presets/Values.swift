// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

extension Length: CustomStringConvertible {
    /// Parses `"12px"`, `"4%"` (of the short side) or a bare number of pixels `"12"`; signs and
    /// decimals allowed (`"-0.5%"`), no spaces, no exponents.
    public init?(parsing text: String) {
        let number: Substring, percent: Bool
        if text.hasSuffix("%") {
            number = text.dropLast()
            percent = true
        } else if text.hasSuffix("px") {
            number = text.dropLast(2)
            percent = false
        } else {
            number = Substring(text)
            percent = false
        }
        guard let value = Self.decimal(number) else { return nil }
        self = percent ? .percent(value) : .px(value)
    }

    /// A plain decimal: optional sign, digits, optional fraction (".5" and "5." are accepted).
    private static func decimal(_ text: Substring) -> Double? {
        var digits = text
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.contains(where: \.isNumber),
            digits.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }),
            digits.filter({ $0 == "." }).count <= 1
        else { return nil }
        return Double(String(text))
    }

    /// The raw number, in its own unit.
    public var value: Double {
        switch self {
        case .px(let value), .percent(let value): value
        }
    }

    /// As written in a preset: `12px`, `4%`.
    public var description: String {
        switch self {
        case .px(let value): "\(value.plainDecimal)px"
        case .percent(let value): "\(value.plainDecimal)%"
        }
    }
}

extension Double {
    /// The number as a preset writes it: whole numbers without ".0", others in the fewest digits
    /// that read back the same, never with an exponent (a length may not have one: 1e-05 would be
    /// written "1e-05%", which no preset can read back).
    var plainDecimal: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int(self)) }
        let text = String(self)
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(text[text.index(after: e)...])
        else {
            return text
        }
        var mantissa = text[..<e]
        let sign = mantissa.first == "-" ? "-" : ""
        if !sign.isEmpty { mantissa = mantissa.dropFirst() }
        let point =
            mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        var digits = mantissa.filter { $0 != "." }
        let shifted = point + exponent  // digits before the point once the exponent is applied
        if shifted <= 0 { return sign + "0." + String(repeating: "0", count: -shifted) + digits }
        if shifted >= digits.count { return sign + digits + String(repeating: "0", count: shifted - digits.count) }
        digits.insert(".", at: digits.index(digits.startIndex, offsetBy: shifted))
        return sign + digits
    }
}

extension Color: CustomStringConvertible {
    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (case-insensitive).
    public init?(hex text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.first == UInt8(ascii: "#") else { return nil }
        let digits = utf8.dropFirst().map(JSONReader.hexValue)
        guard !digits.contains(nil) else { return nil }
        let values = digits.map { Double($0!) }
        switch values.count {
        case 3:
            self.init(red: values[0] / 15, green: values[1] / 15, blue: values[2] / 15)
        case 6, 8:
            func byte(_ i: Int) -> Double { (values[2 * i] * 16 + values[2 * i + 1]) / 255 }
            self.init(red: byte(0), green: byte(1), blue: byte(2), alpha: values.count == 8 ? byte(3) : 1)
        default:
            return nil
        }
    }

    /// `#RRGGBBAA`, uppercase.
    public var hexString: String {
        func byte(_ value: Double) -> String {
            let byte = Int((min(max(value, 0), 1) * 255).rounded())
            return (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
        return "#" + byte(red) + byte(green) + byte(blue) + byte(alpha)
    }

    public var description: String { hexString }
}

extension FontWeight {
    /// Weight names accepted in presets, with their CSS values.
    public static let names: KeyValuePairs<String, Int> = [
        "thin": 100, "light": 300, "normal": 400, "medium": 500, "semibold": 600, "bold": 700,
        "heavy": 900, "black": 900,
    ]

    /// `"bold"`, `"semibold"`, ... (see `names`), case-insensitive.
    public init?(name: String) {
        guard let value = Self.names.first(where: { $0.key == name.lowercased() })?.value else { return nil }
        self.init(value)
    }
}

extension String {
    /// The text with each Unicode scalar that `replacement` has a replacement for replaced. By
    /// scalar, not by Character: a '&' with a combining mark on it is still a '&' to a parser.
    func escaping(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let replaced = replacement(scalar) { out += replaced } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
