// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
@testable import CLI
import Testing

/// The generic parser against a small table of its own, so these tests don't move with camstamp's.
@Suite struct ParserTests {
    static let tool = CommandSpec(
        "tool",
        overview: "A tool.",
        options: [.flag("trace", help: "Trace.")],
        subcommands: [
            CommandSpec(
                "make", overview: "Make things.",
                arguments: [ArgumentSpec("INPUT", arity: .oneOrMore, help: "Inputs.")],
                options: [
                    .single("output", short: "o", value: "PATH", help: "Where.", required: true),
                    .single("quality", value: "Q", help: "How good.", default: "90"),
                    .repeatable("preset", value: "P", help: "Presets."),
                    .flag("skip-existing", help: "Skip."),
                    .flag("overwrite", help: "Overwrite."),
                    .flag("dry-run", help: "Pretend."),
                ],
                exclusive: [["skip-existing", "overwrite"]]),
            CommandSpec(
                "presets", overview: "Presets.",
                subcommands: [
                    CommandSpec("list", overview: "List."),
                    CommandSpec("show", overview: "Show.", arguments: [ArgumentSpec("NAME", help: "Name.")]),
                ],
                defaultSubcommand: "list"),
        ])

    func parse(_ line: String) throws(UsageError) -> ParsedArguments {
        try CommandLineParser.parse(line.split(separator: " ").map(String.init), root: Self.tool)
    }

    func error(_ line: String) -> String? {
        do {
            _ = try parse(line)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func spaceAndEqualsAndShortFormsGiveTheSameValue() throws {
        for line in [
            "make a -o out --quality 80", "make a -o=out --quality=80", "make a -oout --quality=80",
            "make --output out a --quality 80",
        ] {
            let parsed = try parse(line)
            #expect(parsed.path == ["make"], "\(line)")
            #expect(parsed.value("output") == "out", "\(line)")
            #expect(parsed.value("quality") == "80", "\(line)")
            #expect(parsed.positionals == ["a"], "\(line)")
        }
    }

    @Test func equalsKeepsTheRestOfTheValueVerbatim() throws {
        let parsed = try parse("make a -o out --preset=k=v=w --preset=")
        #expect(parsed.values("preset") == ["k=v=w", ""])
    }

    @Test func repeatedOptionsKeepTheirOrder() throws {
        let parsed = try parse("make a -o out --preset b --preset a --preset=c")
        #expect(parsed.values("preset") == ["b", "a", "c"])
    }

    @Test func singleValueOptionGivenTwiceIsAnError() {
        #expect(error("make a -o out --quality 1 --quality 2") == "'--quality' can be given only once")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try parse("make -o out -- --dry-run -x -")
        #expect(parsed.positionals == ["--dry-run", "-x", "-"])
        #expect(!parsed.has("dry-run"))
    }

    @Test func singleDashIsAPositional() throws {
        #expect(try parse("make - -o out").positionals == ["-"])
    }

    @Test func valueMayStartWithADashUnlessItIsAnOption() throws {
        #expect(try parse("make a -o -5").value("output") == "-5")
        #expect(error("make a -o --dry-run") == "missing value for '-o'")
        #expect(error("make a --quality -o out") == "missing value for '--quality'")
    }

    @Test func missingValueAtTheEnd() {
        #expect(error("make a -o out --quality") == "missing value for '--quality'")
    }

    @Test func flagWithAValueIsAnError() {
        #expect(error("make a -o out --dry-run=yes") == "'--dry-run' does not take a value")
    }

    @Test func unknownOptionSuggestsTheClosestName() {
        #expect(
            error("make a -o out --qualty 5")
                == "unknown option '--qualty' for 'tool make'; did you mean '--quality'?")
        #expect(
            error("make a -o out --qaulity=5")
                == "unknown option '--qaulity' for 'tool make'; did you mean '--quality'?")
        #expect(
            error("make a -o out -quality 5")
                == "unknown option '-quality' for 'tool make'; did you mean '--quality'?")
        #expect(
            error("make a -o out --dryrun")
                == "unknown option '--dryrun' for 'tool make'; did you mean '--dry-run'?")
        #expect(
            error("make a -o out --qual 5")
                == "unknown option '--qual' for 'tool make'; did you mean '--quality'?")
    }

    @Test func unknownOptionWithoutACloseNamePointsAtHelp() {
        #expect(error("make a -o out --zebra") == "unknown option '--zebra' for 'tool make'; see 'tool make --help'")
        #expect(error("make a -o out -x") == "unknown option '-x' for 'tool make'; see 'tool make --help'")
    }

    @Test func unknownCommandSuggestsTheClosestName() {
        #expect(error("mkae") == "unknown command 'mkae'; did you mean 'make'?")
        #expect(error("zebra") == "unknown command 'zebra'; see 'tool --help'")
        #expect(error("presets shwo") == "unknown subcommand 'shwo' for 'tool presets'; did you mean 'show'?")
    }

    @Test func exclusiveOptionsAreNamedInTheOrderGiven() {
        #expect(
            error("make a -o out --skip-existing --overwrite")
                == "'--skip-existing' and '--overwrite' cannot be used together")
        #expect(
            error("make a -o out --overwrite --skip-existing")
                == "'--overwrite' and '--skip-existing' cannot be used together")
    }

    @Test func requiredOptionAndPositionals() {
        #expect(error("make a") == "missing required option '-o PATH' for 'tool make'")
        #expect(error("make -o out") == "missing at least one INPUT for 'tool make'")
        #expect(error("presets show") == "missing NAME for 'tool presets show'")
        #expect(error("presets show a b") == "unexpected argument 'b' for 'tool presets show'")
    }

    @Test func helpWinsOverErrorsAndNamesTheDeepestCommand() throws {
        let parsed = try parse("make --qualty 5 --help")
        #expect(parsed.helpRequested)
        #expect(parsed.path == ["make"])
        #expect(try parse("presets show -h").path == ["presets", "show"])
        #expect(try parse("-h").path == [])
        #expect(try parse("--help make").path == ["make"])
    }

    @Test func defaultSubcommand() throws {
        #expect(try parse("presets").path == ["presets", "list"])
        #expect(try parse("").path == [])
    }

    @Test func parentOptionsBeforeASubcommandAreRefused() {
        #expect(error("--trace make a -o out") == "'--trace' cannot be used with 'tool make'")
        // -q and -v are every command's: they may come first.
        #expect(error("--verbose make a -o out") == nil)
    }
}
