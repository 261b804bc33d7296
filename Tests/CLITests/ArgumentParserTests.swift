import Testing

@testable import siwa_mock

@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(
        options: [
            .value("port", "port", help: "", environment: true),
            .value("public-url", "url", help: "", environment: true),
            .flag("verbose", short: "v", help: "", environment: true),
            .value("scenario", "file", help: "", repeatable: true),
        ],
        acceptsPositionals: false)

    @Test func parsesSeparateAndInlineValues() throws {
        let parsed = try parser.parse(["--port", "8081", "--public-url=http://x:1"], environment: [:])
        #expect(parsed.value("port") == "8081")
        #expect(parsed.value("public-url") == "http://x:1")
    }

    @Test func flagsAndShortNames() throws {
        let parsed = try parser.parse(["-v"], environment: [:])
        #expect(parsed.has("verbose"))
    }

    @Test func environmentFillsAbsentOptionsOnly() throws {
        let env = ["SIWA_MOCK_PORT": "9000", "SIWA_MOCK_PUBLIC_URL": "http://env", "SIWA_MOCK_VERBOSE": "true"]
        let parsed = try parser.parse(["--port", "1"], environment: env)
        #expect(parsed.value("port") == "1")
        #expect(parsed.value("public-url") == "http://env")
        #expect(parsed.source(of: "public-url") == "SIWA_MOCK_PUBLIC_URL")
        #expect(parsed.has("verbose"))
    }

    @Test func badEnvironmentFlagIsAUsageError() {
        #expect(throws: UsageError("SIWA_MOCK_VERBOSE must be true or false, got 'maybe'")) {
            try parser.parse([], environment: ["SIWA_MOCK_VERBOSE": "maybe"])
        }
    }

    @Test func unknownOptionSuggestsTheNearestOne() {
        #expect(throws: UsageError("Unknown option '--prot'. Did you mean '--port'?")) {
            try parser.parse(["--prot", "1"], environment: [:])
        }
    }

    @Test func unknownSubcommandSuggestsNearMissesAndSynonymsOfServe() {
        let names = CommandLineTool.allCommands.map { $0.name }
        #expect(CommandLineTool.suggestion(for: "start", among: names) == ". Did you mean 'serve'?")
        #expect(CommandLineTool.suggestion(for: "Run", among: names) == ". Did you mean 'serve'?")
        #expect(CommandLineTool.suggestion(for: "chek", among: names) == ". Did you mean 'check'?")
        #expect(CommandLineTool.suggestion(for: "xyzzy-plugh", among: names) == "")
    }

    @Test func badStoreURLReadsWithoutAStutter() {
        #expect(throws: UsageError("--store 'foo' is not a Redis URL: must start with redis://")) {
            let store = ArgumentParser(options: [StoreOptions.store.spec], acceptsPositionals: false)
            _ = try store.parse(["--store", "foo"], environment: [:]).read(StoreOptions.store)
        }
    }

    @Test func missingValueAndRepeatsAndPositionals() {
        #expect(throws: UsageError("Missing value for '--port <port>'")) {
            try parser.parse(["--port"], environment: [:])
        }
        #expect(throws: UsageError("Option '--port' was given more than once")) {
            try parser.parse(["--port", "1", "--port", "2"], environment: [:])
        }
        #expect(throws: UsageError("Unexpected argument 'extra'")) { try parser.parse(["extra"], environment: [:]) }
        #expect(throws: UsageError("Flag '--verbose' does not take a value")) {
            try parser.parse(["--verbose=yes"], environment: [:])
        }
    }

    @Test func repeatableOptionsCollectInOrder() throws {
        let parsed = try parser.parse(["--scenario", "a", "--scenario", "b"], environment: [:])
        #expect(parsed.all("scenario") == ["a", "b"])
    }

    @Test func integerRangeErrorNamesTheSource() throws {
        let port = Option("port", "port", help: "", default: 8080, environment: true, parser: .integer(in: 0...65535))
        let parsed = try parser.parse([], environment: ["SIWA_MOCK_PORT": "70000"])
        #expect(throws: UsageError("SIWA_MOCK_PORT must be an integer from 0 to 65535, got '70000'")) {
            try parsed.read(port)
        }
        let huge = try parser.parse(["--port", "99999999999999999999999"], environment: [:])
        #expect(throws: UsageError.self) { try huge.read(port) }
        #expect(try parser.parse([], environment: [:]).read(port) == 8080)
    }

    @Test func negativeNumbersArePositionalsNotOptions() throws {
        let positional = ArgumentParser(options: [], acceptsPositionals: true)
        #expect(try positional.parse(["advance", "-2d"], environment: [:]).positionals == ["advance", "-2d"])
        #expect(throws: UsageError("Unknown option '-x'")) {
            try positional.parse(["-x"], environment: [:])
        }
    }

    @Test func editDistance() {
        #expect(EditDistance.distance("kitten", "sitting") == 3)
        #expect(EditDistance.closest(to: "sevre", among: ["serve", "keygen"], maximum: 3) == "serve")
        #expect(EditDistance.closest(to: "zzzzzzzz", among: ["serve"], maximum: 3) == nil)
    }
}
