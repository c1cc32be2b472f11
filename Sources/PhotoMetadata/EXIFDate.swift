// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

extension EXIF {
    /// DateTimeOriginal ("YYYY:MM:DD HH:MM:SS") as a Date: in OffsetTimeOriginal's offset when the
    /// photo has one, else in `timeZone` (cameras store local time); SubSecTimeOriginal is added.
    /// nil when absent or not a real date.
    public func dateTimeOriginal(in timeZone: TimeZone = .current) -> Date? {
        guard let text = ascii(0x9003, in: .exif) else { return nil }
        let zone = ascii(0x9011, in: .exif).flatMap(Self.offsetZone) ?? timeZone
        guard var date = Self.parseDateTime(text, in: zone) else { return nil }
        if let sub = ascii(0x9291, in: .exif), !sub.isEmpty, sub.allSatisfy(\.isASCIIDigit),
            let fraction = Double("0." + sub)
        {
            date += fraction
        }
        return date
    }

    func ascii(_ tag: UInt16, in ifd: IFDKind) -> String? {
        guard let e = entry(tag, in: ifd), case .ascii(let s) = value(e) else { return nil }
        return s.trimmingCharacters(in: .whitespaces)
    }

    /// "YYYY:MM:DD HH:MM:SS" in `zone`; nil for anything else, including the all-zero "unknown".
    static func parseDateTime(_ text: String, in zone: TimeZone) -> Date? {
        let chars = Array(text.utf8.prefix(19))
        let pattern = Array("dddd:dd:dd dd:dd:dd".utf8)
        guard chars.count == 19,
            zip(chars, pattern).allSatisfy({ c, p in
                p == UInt8(ascii: "d")
                    ? (0x30...0x39).contains(c) : c == p || (p == UInt8(ascii: ":") && c == UInt8(ascii: "-"))
            })
        else { return nil }
        func number(_ range: Range<Int>) -> Int { chars[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        let (y, mo, d, h, mi, s) = (
            number(0..<4), number(5..<7), number(8..<10), number(11..<13), number(14..<16), number(17..<19)
        )
        guard (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == d
        else { return nil }  // refuses Feb 30
        return date
    }

    /// "+02:00" / "-05:30" as a fixed-offset zone.
    static func offsetZone(_ text: String) -> TimeZone? {
        let c = Array(text.utf8)
        guard c.count == 6, c[0] == UInt8(ascii: "+") || c[0] == UInt8(ascii: "-"), c[3] == UInt8(ascii: ":"),
            let h = Int(String(decoding: c[1...2], as: UTF8.self)),
            let m = Int(String(decoding: c[4...5], as: UTF8.self)),
            h <= 14, m < 60
        else { return nil }
        let seconds = (h * 3600 + m * 60) * (c[0] == UInt8(ascii: "-") ? -1 : 1)
        return TimeZone(secondsFromGMT: seconds)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
