// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Pictures shown in the terminal itself, for `presets list --pictures`: the kitty graphics
/// protocol (kitty, WezTerm, Ghostty, Konsole), iTerm2's inline images or sixel (foot, mlterm;
/// `CAMSTAMP_PICTURES=kitty|iterm2|sixel|none` names one the environment does not). Used only when stdout
/// is a terminal and the environment names one that speaks a protocol: escape sequences written
/// into a pipe or a file would be garbage there, and a terminal that does not know them prints
/// them as text.
enum TerminalImages {
    enum Kind: Equatable {
        case kitty
        case iTerm2
        case sixel
    }

    /// Names a protocol for a terminal the environment does not give away (xterm with sixel).
    static let override = "CAMSTAMP_PICTURES"

    /// The protocol stdout's terminal speaks, by `environment`; nil when stdout is no terminal or
    /// the terminal is not known to show pictures.
    static func detect(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isTerminal: Bool = isatty(STDOUT_FILENO) == 1
    ) -> Kind? {
        guard isTerminal else { return nil }
        switch environment[override] {
        case "kitty": return .kitty
        case "iterm2": return .iTerm2
        case "sixel": return .sixel
        case "none": return nil
        default: break
        }
        let term = environment["TERM"] ?? "", program = environment["TERM_PROGRAM"] ?? ""
        // Inside tmux or screen the sequences need wrapping the multiplexer may not pass on.
        if term.hasPrefix("screen") || term.hasPrefix("tmux") || environment["TMUX"] != nil { return nil }
        if term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil || term == "xterm-ghostty"
            || ["WezTerm", "ghostty"].contains(program) || environment["KONSOLE_VERSION"] != nil
        {
            return .kitty
        }
        if program == "iTerm.app" { return .iTerm2 }
        if ["foot", "foot-extra", "mlterm", "contour"].contains(term) || term.hasPrefix("yaft") { return .sixel }
        return nil
    }

    /// The escape sequences that show a picture at the cursor, then a line break.
    /// kitty: raw 24-bit RGB (`f=24`, every terminal of the protocol takes it; PNG would need an
    /// encoder), base64 in chunks of at most 4096 bytes, `m=1` on all but the last.
    /// iTerm2: the JPEG file itself.
    static func sequence(_ picture: Picture, protocol kind: Kind) -> String {
        switch kind {
        case .kitty:
            let encoded = Data(picture.rgb).base64EncodedString()
            var out = ""
            var start = encoded.startIndex
            var first = true
            while start < encoded.endIndex {
                let end = encoded.index(start, offsetBy: 4096, limitedBy: encoded.endIndex) ?? encoded.endIndex
                let more = end < encoded.endIndex ? 1 : 0
                let keys = first ? "a=T,f=24,s=\(picture.width),v=\(picture.height),q=2,m=\(more)" : "m=\(more)"
                out += "\u{1B}_G\(keys);\(encoded[start..<end])\u{1B}\\"
                start = end
                first = false
            }
            return out + "\n"
        case .sixel:
            return Sixel.encode(rgb: picture.rgb, width: picture.width, height: picture.height) + "\n"
        case .iTerm2:
            let file = picture.jpeg.base64EncodedString()
            return "\u{1B}]1337;File=inline=1;size=\(picture.jpeg.count);preserveAspectRatio=1:\(file)\u{07}\n"
        }
    }

    /// A picture in the two forms the protocols take.
    struct Picture {
        var width: Int
        var height: Int
        /// Packed R, G, B.
        var rgb: [UInt8]
        var jpeg: Data
    }
}
