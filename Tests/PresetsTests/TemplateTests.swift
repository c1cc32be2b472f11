// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

@Suite struct TemplateTests {
    let utc = TimeZone(identifier: "UTC")!
    /// 2026-03-07 14:05:09 UTC, a Saturday.
    let capture = Date(timeIntervalSince1970: 1_772_892_309)
    /// 2026-12-31 00:03:04 UTC, a Thursday.
    let later = Date(timeIntervalSince1970: 1_798_675_384)

    func context(_ changes: (inout TemplateContext) -> Void = { _ in }) -> TemplateContext {
        var context = TemplateContext(captureDate: capture, now: later, timeZone: utc, hostname: "studio-pc")
        changes(&context)
        return context
    }

    func expand(
        _ text: String, variables: Set<String> = [], markup: Bool = false,
        _ changes: (inout TemplateContext) -> Void = { _ in }
    ) throws -> String {
        try Template(text, variables: variables).expand(context(changes), escapingMarkup: markup)
    }

    func templateError(_ text: String, variables: Set<String> = []) -> String {
        do {
            _ = try Template(text, variables: variables)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        ("%Y-%m-%d %H:%M:%S", "2026-03-07 14:05:09"),
        ("%y %C %e|%-d|%-m", "26 20  7|7|3"),
        ("%I %l %p %P", "02  2 PM pm"),
        ("%j %a %A %b %h %B", "066 Sat Saturday Mar Mar March"),
        ("%F %T %R %D", "2026-03-07 14:05:09 14:05 03/07/26"),
        ("%Z %z %%", "UTC +0000 %"),
        ("%u %w %s", "6 6 1772892309"),
        ("%c", "Sat Mar  7 14:05:09 2026"),
        ("%x %X %r", "03/07/26 14:05:09 02:05:09 PM"),
        ("%Y年%m月%d日 %H:%M", "2026年03月07日 14:05"),
    ])
    func strftime(format: String, expected: String) throws {
        #expect(try Strftime(format).string(from: capture, timeZone: utc) == expected)
    }

    @Test func strftimeMidnightAndYearEnd() throws {
        #expect(try Strftime("%j %I %l %p %a %H").string(from: later, timeZone: utc) == "365 12 12 AM Thu 00")
    }

    @Test func strftimeInOtherZones() throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(try Strftime("%F %T %z").string(from: capture, timeZone: tokyo) == "2026-03-07 23:05:09 +0900")
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(try Strftime("%F %H %z").string(from: capture, timeZone: newYork) == "2026-03-07 09 -0500")
        let kathmandu = TimeZone(identifier: "Asia/Kathmandu")!
        #expect(try Strftime("%z").string(from: capture, timeZone: kathmandu) == "+0545")
    }

    @Test func builtinDatesAndTimes() throws {
        #expect(try expand("{date}") == "2026-03-07")
        #expect(try expand("{time}") == "14:05:09")
        #expect(try expand("{datetime}") == "2026-03-07 14:05:09")
        #expect(try expand("{now}") == "2026-12-31 00:03:04")
        #expect(try expand("{date:%Y}|{time:%H.%M}|{now:%Y}|{datetime:%d}") == "2026|14.05|2026|07")
    }

    @Test func nowDefaultsToTheCurrentTime() throws {
        let old = TemplateContext(captureDate: Date(timeIntervalSince1970: 0), timeZone: utc, hostname: "h")
        let template = try Template("{date:%Y}|{now:%Y}", variables: [])
        let thisYear = try Strftime("%Y").string(from: Date(), timeZone: utc)
        #expect(template.expand(old, escapingMarkup: false) == "1970|\(thisYear)")
    }

    @Test func captureDateOutOfRangeShowsTheCurrentTime() throws {
        // A file time of 2^63-1 seconds (tmpfs accepts it): Calendar and Int(epoch) cannot hold it.
        for wild in [
            Date(timeIntervalSince1970: 9_223_372_036_854_775_807), Date(timeIntervalSince1970: -1e18),
            Date(timeIntervalSince1970: 253_402_300_800),
        ] {
            #expect(
                try expand("{date} {time} {date:%s %c %j %A}") { $0.captureDate = wild }
                    == "2026-12-31 00:03:04 1798675384 Thu Dec 31 00:03:04 2026 365 Thursday")
        }
        // Both out of range: the epoch, never a trap.
        #expect(
            try expand("{date:%F %T}|{now:%s}") {
                $0.captureDate = Date(timeIntervalSince1970: 9.2e18)
                $0.now = Date(timeIntervalSince1970: -9.2e18)
            } == "1970-01-01 00:00:00|-62135596800")
        // The last second strftime can show is shown as it is.
        #expect(
            try Strftime("%F %T %s").string(from: Date(timeIntervalSince1970: 253_402_300_799), timeZone: utc)
                == "9999-12-31 23:59:59 253402300799")
    }

    @Test func fileAndFrameVariables() throws {
        let text = try expand("{filename} {stem} {counter} {counter:4} {width}x{height} {hostname} {frame} {fps}") {
            $0.filename = "IMG_0001.JPG"
            $0.stem = "IMG_0001"
            $0.counter = 7
            $0.width = 6000
            $0.height = 4000
            $0.frame = 241
            $0.fps = 29.97
        }
        #expect(text == "IMG_0001.JPG IMG_0001 7 0007 6000x4000 studio-pc 241 29.97")
        #expect(try expand("{fps}|{fps}") { $0.fps = 30 } == "30|30")
        // {timecode}: HH:MM:SS:FF from the frame number and the rate (non-drop-frame).
        #expect(
            try expand("{timecode}") {
                $0.frame = 45
                $0.fps = 30
            } == "00:00:01:15")
        #expect(
            try expand("{timecode}") {
                $0.frame = 3600 * 25 + 61 * 25 + 24
                $0.fps = 25
            } == "01:01:01:24")
        #expect(
            try expand("{timecode}") {
                $0.frame = 30
                $0.fps = 29.97
            } == "00:00:01:00")
        #expect(try expand("[{timecode}]") { $0.frame = 3 } == "[]")
        #expect(try expand("[{filename}{counter}{frame}{fps}]") == "[]")
    }

    @Test func exifWithFallback() throws {
        let exif = ["Model": "X-T5", "FNumber": "5.6", "LensModel": "  "]
        #expect(try expand("{exif:Model} f/{exif:FNumber} {exif:ISOSpeedRatings}") { $0.exif = exif } == "X-T5 f/5.6 ")
        #expect(
            try expand("{exif:ISOSpeedRatings|?}|{exif:Model|Camera}|{exif:LensModel|no lens}|{exif:Make|}") {
                $0.exif = exif
            }
                == "?|X-T5|no lens|")
    }

    @Test func presetVariablesAndBraces() throws {
        #expect(
            try expand("© {author} {{literal}} }}{{", variables: ["author"]) { $0.variables = ["author": "Ann"] }
                == "© Ann {literal} }{")
    }

    @Test func markupEscapesValuesOnly() throws {
        let text = "<b>{author}</b> {filename} &amp; {job}"
        let names: Set<String> = ["author", "job"]
        let values: (inout TemplateContext) -> Void = {
            $0.variables = ["author": "Tom & Jerry <3", "job": "\"q\" 'x'"]
            $0.filename = "a<b>.jpg"
        }
        #expect(
            try expand(text, variables: names, markup: true, values)
                == "<b>Tom &amp; Jerry &lt;3</b> a&lt;b&gt;.jpg &amp; &quot;q&quot; &apos;x&apos;")
        #expect(
            try expand(text, variables: names, markup: false, values)
                == "<b>Tom & Jerry <3</b> a<b>.jpg &amp; \"q\" 'x'")
    }

    @Test func dependencies() throws {
        #expect(try Template("{date}", variables: []).dependsOnTime)
        #expect(try !Template("{stem} {exif:Model}", variables: []).dependsOnTime)
        #expect(try Template("{a}{b}{exif:Model}", variables: ["a", "b"]).variableNames == ["a", "b"])
    }

    @Test(
        arguments: [
            ("© {autor}", ["author"], "unknown variable '{autor}'; did you mean 'author'?"),
            ("{job}", [], "unknown variable '{job}'; define it in the preset's \"variables\" or pass --var job=VALUE"),
            ("{dat}", [], "unknown variable '{dat}'; did you mean 'date'?"),
            ("{date", [], "unclosed '{' in text '{date'; write '{{' for a literal brace"),
            ("a } b", [], "lone '}' in text 'a } b'; write '}}' for a literal brace"),
            ("{}", [], "empty variable '{}'; write '{{' and '}}' for literal braces"),
            ("{date:%Q}", [], "unknown date field '%Q' in '%Q'; use strftime fields such as %Y %m %d %H %M %S"),
            ("{date:%}", [], "date format '%' ends with a lone '%'; write '%%' for a percent sign"),
            ("{stem:x}", [], "variable 'stem' takes no ':' argument in '{stem:x}'"),
            ("{exif:}", [], "'{exif:}' needs an EXIF tag name; write e.g. {exif:Model} or {exif:Model|unknown}"),
            ("{counter:x}", [], "counter width must be a number from 1 to 12 in '{counter:x}'; write e.g. {counter:4}"),
        ] as [(String, Set<String>, String)])
    func errors(text: String, variables: Set<String>, expected: String) {
        #expect(templateError(text, variables: variables) == expected)
    }

    /// A value whose '&' or '<' carries a combining mark is one Character that is not "&" or "<":
    /// escaping by Character let it into Pango markup raw, where it breaks the mark.
    @Test func escapingSeesMarkupCharactersUnderCombiningMarks() throws {
        #expect(Template.escapeMarkup("&\u{301}x <\u{338} \"\u{300}") == "&amp;\u{301}x &lt;\u{338} &quot;\u{300}")
        #expect(
            try expand("<b>{v}</b>", variables: ["v"], markup: true) { $0.variables = ["v": "R&\u{301}D"] }
                == "<b>R&amp;\u{301}D</b>")
    }

    @Test func markTemplateFollowsContent() throws {
        var mark = Mark(content: .text("{stem}"))
        #expect(mark.expandedText(context { $0.stem = "a&b" }) == "a&b")
        mark.markup = true
        #expect(mark.expandedText(context { $0.stem = "a&b" }) == "a&amp;b")
        mark.content = .text("<i>{hostname}</i>")
        #expect(mark.expandedText(context()) == "<i>studio-pc</i>")
        let resolved = mark.resolved(width: 100, height: 50, context: context())
        #expect(resolved.content == .text("<i>studio-pc</i>", markup: true))
        mark.content = .image(URL(fileURLWithPath: "/x.png"))
        #expect(mark.template == nil)
        #expect(mark.expandedText(context()) == "")
    }
}

@Suite struct MarkupTests {
    func problem(_ text: String) throws -> String? {
        try Template(text, variables: ["v"]).markupProblem()
    }

    @Test func wellFormed() throws {
        #expect(try problem("plain") == nil)
        #expect(
            try problem("<b>{v}</b> &amp; &#169; &#xA9; <span size=\"x-large\" font_desc='Sans 12'>a > b</span>") == nil
        )
        #expect(try problem("<span size=\"x-large\" weight=\"bold\">{time:%H:%M}</span>\n{date}") == nil)
        #expect(try problem("<i>a</i><b/><big><small>x</small></big>") == nil)
        #expect(try problem("<span foreground=\"{v}\">x</span>") == nil)
    }

    @Test(arguments: [
        ("Tom & Jerry", "a bare '&' must be written '&amp;'"),
        ("<b>bold", "'<b>' is never closed"),
        ("<b><i>x</b></i>", "'</b>' does not match '<i>'"),
        ("x</b>", "'</b>' closes nothing"),
        (
            "<bold>x</bold>",
            "unknown markup tag '<bold>'; Pango knows <markup> <span> <b> <big> <i> <s> <sub> <sup> <small> <tt> <u>"
        ),
        ("<spam>x</spam>", "unknown markup tag '<spam>'; did you mean 'span'?"),
        ("a < b", "unclosed '<' (write '&lt;' for a literal '<')"),
    ])
    func problems(text: String, expected: String) throws {
        #expect(try problem(text) == expected)
    }

    @Test func validateReportsMarkup() {
        #expect(
            errorText(#"{"marks": [{"text": "<b>{stem}", "markup": true}]}"#)
                == #"/presets-test/studio.json:1: markup: '<b>' is never closed at $.marks[0].text; set "markup": false to show the text as written"#
        )
        #expect(errorText(#"{"marks": [{"text": "<b>{stem}", "markup": false}]}"#) == "no error")
    }
}
