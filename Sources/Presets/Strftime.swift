// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A strftime(3) format parsed once and applied to many dates, in Swift over Calendar so it needs
/// no C locale: English names, the C locale's layouts for `%c` `%x` `%X`, GNU's `%-d` for no padding.
public struct Strftime: Hashable, Sendable {
    enum Token: Hashable, Sendable {
        case literal(String)
        /// A conversion character; `pad` is false for GNU's `%-x` form.
        case field(Character, pad: Bool)
    }

    /// The format as written.
    public let format: String
    let tokens: [Token]

    /// The conversions this formatter knows.
    public static let supportedFields: Set<Character> = [
        "Y", "y", "C", "m", "d", "e", "H", "I", "k", "l", "M", "S", "p", "P", "j", "a", "A", "b", "h", "B",
        "F", "T", "R", "D", "r", "c", "x", "X", "Z", "z", "u", "w", "s", "n", "t", "%",
    ]

    /// Parses `format`; an unknown or dangling `%` conversion is an error naming it.
    public init(_ format: String) throws(PresetError) {
        self.format = format
        var tokens: [Token] = []
        var literal = ""
        var iterator = format.makeIterator()
        while let character = iterator.next() {
            guard character == "%" else {
                literal.append(character)
                continue
            }
            guard var field = iterator.next() else {
                throw PresetError(
                    .badTemplate, "date format '\(format)' ends with a lone '%'", hint: "write '%%' for a percent sign")
            }
            var pad = true
            if field == "-" {
                pad = false
                guard let next = iterator.next() else {
                    throw PresetError(.badTemplate, "date format '\(format)' ends with '%-'")
                }
                field = next
            }
            guard Self.supportedFields.contains(field) else {
                throw PresetError(
                    .badTemplate, "unknown date field '%\(pad ? "" : "-")\(field)' in '\(format)'",
                    hint: "use strftime fields such as %Y %m %d %H %M %S")
            }
            if !literal.isEmpty {
                tokens.append(.literal(literal))
                literal = ""
            }
            tokens.append(.field(field, pad: pad))
        }
        if !literal.isEmpty { tokens.append(.literal(literal)) }
        self.tokens = tokens
    }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ]

    /// The dates this formatter shows as they are: years 1 to 9999 (UTC). A file time of 2^63−1
    /// seconds is far outside it, and neither Calendar nor an Int of epoch seconds can hold it.
    public static let formattableDates =
        Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799)

    /// `date` formatted in `timeZone`; a date outside `formattableDates` is shown as the nearest
    /// end of that range (callers with a better fallback, like `Template`, pick it first).
    public func string(from date: Date, timeZone: TimeZone) -> String {
        let date = min(max(date, Self.formattableDates.lowerBound), Self.formattableDates.upperBound)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let fields = Fields(
            year: parts.year ?? 1970, month: min(max(parts.month ?? 1, 1), 12), day: parts.day ?? 1,
            hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0,
            weekday: min(max((parts.weekday ?? 1) - 1, 0), 6),
            dayOfYear: calendar.ordinality(of: .day, in: .year, for: date) ?? 1,
            offset: timeZone.secondsFromGMT(for: date),
            zoneName: Self.zoneName(timeZone, at: date),
            epoch: Int(date.timeIntervalSince1970.rounded(.down)))
        var out = ""
        for token in tokens {
            switch token {
            case .literal(let text): out += text
            case .field(let field, let pad): out += fields.render(field, pad: pad)
            }
        }
        return out
    }

    /// The zone's abbreviation as Foundation knows it ("EST", "GMT+1"); Foundation turns "UTC"
    /// into "GMT", strftime says "UTC".
    static func zoneName(_ zone: TimeZone, at date: Date) -> String {
        if ["UTC", "GMT", "Etc/UTC", "Etc/GMT"].contains(zone.identifier) { return "UTC" }
        return zone.abbreviation(for: date) ?? zone.identifier
    }

    private struct Fields {
        var year, month, day, hour, minute, second, weekday, dayOfYear, offset: Int
        var zoneName: String
        var epoch: Int

        func number(_ value: Int, width: Int, pad: Bool, filler: Character = "0") -> String {
            let digits = String(value)
            guard pad, digits.count < width else { return digits }
            return String(repeating: filler, count: width - digits.count) + digits
        }

        var hour12: Int { hour % 12 == 0 ? 12 : hour % 12 }

        func render(_ field: Character, pad: Bool) -> String {
            switch field {
            case "Y": String(year)
            case "y": number(((year % 100) + 100) % 100, width: 2, pad: pad)
            case "C": number(year / 100, width: 2, pad: pad)
            case "m": number(month, width: 2, pad: pad)
            case "d": number(day, width: 2, pad: pad)
            case "e": number(day, width: 2, pad: pad, filler: " ")
            case "H": number(hour, width: 2, pad: pad)
            case "k": number(hour, width: 2, pad: pad, filler: " ")
            case "I": number(hour12, width: 2, pad: pad)
            case "l": number(hour12, width: 2, pad: pad, filler: " ")
            case "M": number(minute, width: 2, pad: pad)
            case "S": number(second, width: 2, pad: pad)
            case "p": hour < 12 ? "AM" : "PM"
            case "P": hour < 12 ? "am" : "pm"
            case "j": number(dayOfYear, width: 3, pad: pad)
            case "a": String(Strftime.weekdays[weekday].prefix(3))
            case "A": Strftime.weekdays[weekday]
            case "b", "h": String(Strftime.months[month - 1].prefix(3))
            case "B": Strftime.months[month - 1]
            case "F": "\(year)-\(render("m", pad: true))-\(render("d", pad: true))"
            case "T": "\(render("H", pad: true)):\(render("M", pad: true)):\(render("S", pad: true))"
            case "R": "\(render("H", pad: true)):\(render("M", pad: true))"
            case "D", "x": "\(render("m", pad: true))/\(render("d", pad: true))/\(render("y", pad: true))"
            case "r":
                "\(render("I", pad: true)):\(render("M", pad: true)):\(render("S", pad: true)) \(render("p", pad: true))"
            case "X": render("T", pad: true)
            case "c":
                "\(render("a", pad: true)) \(render("b", pad: true)) \(render("e", pad: true)) \(render("T", pad: true)) \(year)"
            case "Z": zoneName
            case "z":
                (offset < 0 ? "-" : "+") + number(abs(offset) / 3600, width: 2, pad: true)
                    + number(abs(offset) % 3600 / 60, width: 2, pad: true)
            case "u": String(weekday == 0 ? 7 : weekday)
            case "w": String(weekday)
            case "s": String(epoch)
            case "n": "\n"
            case "t": "\t"
            default: "%"
            }
        }
    }
}
