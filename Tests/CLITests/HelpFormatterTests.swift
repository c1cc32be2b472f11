// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
@testable import CLI
import Testing

@Suite struct HelpFormatterTests {
    @Test func everyHelpLineFitsIn80Columns() {
        for path in CommandLineTests.allCommands {
            let text = helpText(for: path)!
            for line in text.split(separator: "\n") {
                #expect(line.count <= 80, "\(path): \(line)")
                #expect(!line.hasSuffix(" "), "\(path): trailing space in '\(line)'")
            }
        }
    }

    @Test func sectionsComeInOrder() {
        let text = helpText(for: ["batch"])!
        let positions = ["OVERVIEW:", "USAGE:", "ARGUMENTS:", "OPTIONS:"].map { text.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    @Test func optionTextStartsInOneColumn() {
        let text = helpText(for: ["shoot"])!
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("  -") || $0.hasPrefix("      --") }
        let columns = Set(
            rows.map { row -> Int in
                // The label starts after the indent; the text starts after the label and two spaces.
                let label = row.drop { $0 == " " }
                let gap = label.range(of: "  ")!.lowerBound
                let text = label[gap...].drop { $0 == " " }
                return row.distance(from: row.startIndex, to: text.startIndex)
            })
        #expect(columns.count == 1, "\(columns)")
    }

    @Test func wrapBreaksBetweenWordsAndIndentsContinuations() {
        let lines = HelpFormatter.wrap("aaa bbb ccc ddd", width: 9, first: "> ", rest: "  ")
        #expect(lines == ["> aaa bbb", "  ccc ddd"])
        #expect(
            HelpFormatter.wrap("averyveryverylongword x", width: 8, first: "", rest: "")
                == ["averyveryverylongword", "x"])
    }

    @Test func usageLineGroupsExclusiveOptions() {
        let text = helpText(for: ["batch"])!
        #expect(text.contains("[--skip-existing | --overwrite]"))
        #expect(text.contains("[--strip-gps | --strip-metadata]"))
        #expect(text.contains("USAGE: camstamp batch INPUT... -o OUTDIR [--preset P]..."))
    }

    @Test func defaultsAreShown() {
        #expect(helpText(for: ["shoot"])!.contains("(default: 90)"))
        #expect(helpText(for: ["stream"])!.contains("(default: 4000)"))
        #expect(helpText(for: ["batch"])!.contains("(default: {stem})"))
    }

    /// Issue 8 §2: the removal of every unmarked copy is said where a user looks first.
    @Test func batchHelpSaysEmbeddedPreviewsAreLeftOut() {
        let text = helpText(for: ["batch"])!.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        #expect(
            text.contains(
                "Embedded previews (the EXIF thumbnail, maker-note and XMP previews, MPF images, "
                    + "a motion photo's video) are left out: they show the photo unmarked."), "\(text)")
    }
}
