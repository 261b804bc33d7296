import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import SMTP
import ScenarioModel
import Testing

/// No value from the control API, a scenario or SMTP adds a header field to mail the relay delivers or
/// stores (issue 36 findings 2 and 3). The instances the red team found, then the class: generated
/// hostile values for every field that reaches mail, each either refused with a precise error or
/// written so that a reader ending lines at CR, LF, NUL or a Unicode separator sees no new field.
@Suite struct HeaderInjectionTests {
    static let bob = "k7x2m9q4ab@privaterelay.appleid.com"
    static let mailer = MailEndpointTests()

    /// Every header line of `raw` as a lenient reader splits it: at CR, LF, NUL, VT, FF, NEL, U+2028
    /// and U+2029, continuation lines dropped. The names of the fields it sees.
    static func fieldNames(_ raw: [UInt8]) -> [String] {
        let text = String(decoding: raw, as: UTF8.self)
        let head = text.firstRange(of: "\r\n\r\n").map { String(text[..<$0.lowerBound]) } ?? text
        let breaks: Set<Unicode.Scalar> = ["\r", "\n", "\0", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]
        var lines: [String] = [""]
        for scalar in head.unicodeScalars {
            if breaks.contains(scalar) {
                lines.append("")
            } else {
                lines[lines.count - 1].unicodeScalars.append(scalar)
            }
        }
        return lines.filter { !$0.isEmpty && $0.first != " " && $0.first != "\t" }.map { line in
            String(line.prefix { $0 != ":" })
        }
    }

    /// Delivers one message from the registered `hello@shop.example` and answers it; the names of the
    /// fields of both stored records, as a lenient reader sees them.
    /// Nil when the relay refused the message (the sender's own bytes: refused is a right answer).
    static func deliverAndReply(_ harness: ControlHarness, subject: String = "Hi", display: String = "Shop")
        throws -> (delivered: [String], reply: [String])?
    {
        // A new mock day: the relay address's 100 a day is never what stops a round.
        harness.clock.advance(milliseconds: 86_400_000)
        let before = harness.server.mailbox.records { _ in true }.count
        let replies = mailer.converse(
            harness.server,
            "EHLO test\r\nMAIL FROM:<hello@shop.example>\r\nRCPT TO:<\(bob)>\r\nDATA\r\n"
                + "From: \(display) <hello@shop.example>\r\nSubject: \(subject)\r\n\r\nHello\r\n.\r\n")
        guard replies.contains("250 2.0.0 Ok: queued as") else { return nil }
        let records = harness.server.mailbox.records { _ in true }
        let delivered = try #require(records.dropFirst(before).first)
        let answer = try harness.call(
            .post, "/mock/mail/\(delivered.id)/reply", .object(JSONObject([("text", .string("ok"))])))
        try #require(answer.status == 201, "\(answer.text)")
        let reply = try #require(harness.server.mailbox.records { _ in true }.last)
        return (fieldNames(delivered.raw), fieldNames(reply.raw))
    }

    static let deliveredFields = ["Received", "From", "Subject"]
    static let replyFields = ["From", "To", "Subject", "Date", "Content-Type"]

    @Test func theRedTeamsInstancesAreRefused() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let injected = "bob@example.com\r\nBcc: victim@attacker.example"
            let patch = try harness.call(.patch, "/mock/users/bob", .object(JSONObject([("email", .string(injected))])))
            expectControlError(patch, 400, field: "email")
            #expect(patch.json?["message"]?.stringValue?.contains("carriage return (CR)") == true, "\(patch.text)")
            let relay = try harness.call(
                .patch, "/mock/users/bob", .object(JSONObject([("relay_email", .string(Self.bob + "\nX-Evil: 1"))])))
            expectControlError(relay, 400, field: "relay_email")
            let added = try harness.call(
                .post, "/mock/users",
                .object(JSONObject([("id", .string("eve")), ("email", .string("eve\u{0}@example.com"))])))
            expectControlError(added, 400, field: "email")
            let names = try #require(try Self.deliverAndReply(harness))
            #expect(names.delivered == Self.deliveredFields, "\(names.delivered)")
            let subject = try harness.call(
                .post, "/mock/mail/m1/reply",
                .object(
                    JSONObject([("text", .string("x")), ("subject", .string("Re\r\nBcc: victim@attacker.example"))])))
            expectControlError(subject, 400, field: "subject")
            for hostile in ["Re\0x", "Re\rBcc: x", "Re\u{2028}Bcc: x"] {
                let refused = try harness.call(
                    .post, "/mock/mail/m1/reply",
                    .object(JSONObject([("text", .string("x")), ("subject", .string(hostile))])))
                expectControlError(refused, 400, field: "subject")
            }
        }
    }

    /// The red team's display name, with bare CRs inside a quoted string (finding 3).
    @Test func aBareCRInADisplayNameDoesNotReachTheRewrittenFrom() throws {
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            let names = try #require(
                try Self.deliverAndReply(harness, display: "\"Shop\\\" \rBcc: evil@attacker.example\r\""))
            #expect(names.delivered == Self.deliveredFields, "\(names.delivered)")
            #expect(names.reply == Self.replyFields, "\(names.reply)")
        }
    }

    static let hostilePieces = [
        "\r\n", "\r", "\n", "\0", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\r\n ", "\n\t",
        "Bcc: victim@attacker.example", "X-Evil: 1", "To:", ": ", "\"", "\\", "<", ">", "@", ".", "=?utf-8?q?a?=",
        "é", "a", "bob", "example.com", " ", "\t", "\r\r\n",
    ]

    /// `base` with 1–4 hostile pieces inserted at one place; SIWACore's seeded SplitMix64, so a failure
    /// names a reproducible input.
    static func hostile(_ generator: inout SplitMix64, around base: String) -> String {
        var text = ""
        let cut = Int.random(in: 0...base.count, using: &generator)
        text += base.prefix(cut)
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            text += hostilePieces.randomElement(using: &generator)!
        }
        return text + base.dropFirst(cut)
    }

    /// Every control-API field that reaches mail (a user's `email`, `relay_email` and names, a reply's
    /// `subject` and `text`) with generated hostile values: each answer is 2xx or a 400 naming the field,
    /// and whatever was accepted, the next delivered message and reply have exactly their own fields.
    @Test func generatedHostileControlValuesNeverAddAField() throws {
        var generator = SplitMix64(seed: 36)
        try ControlHarness.run(.inProcess, scenario: try ScenarioFiles.load("relay-mail.yaml")) { harness in
            var accepted = 0
            for round in 0..<60 {
                let field = ["email", "relay_email", "first_name", "last_name"][round % 4]
                let base = field == "relay_email" ? Self.bob : field == "email" ? "bob@example.com" : "Bob"
                let value = Self.hostile(&generator, around: base)
                let answer = try harness.call(
                    .patch, "/mock/users/bob", .object(JSONObject([(field, .string(value))])))
                #expect(
                    answer.status == 200 || (answer.status == 400 && answer.json?["field"] == .string(field)),
                    "\(field)=\(value.debugDescription): \(answer.status) \(answer.text)")
                if answer.status == 200 { accepted += 1 }
                if field.hasSuffix("email") {
                    // Back to the address the relay delivers to, for the next round.
                    _ = try harness.call(
                        .patch, "/mock/users/bob",
                        .object(
                            JSONObject([("email", .string("bob@example.com")), ("relay_email", .string(Self.bob))])))
                }
                let subject = Self.hostile(&generator, around: "Re: hi")
                // The sender's own LF would end its own From line: a field of its own, not one the mock added.
                let display = Self.hostile(&generator, around: "Shop").filter { !$0.unicodeScalars.contains("\n") }
                if let names = try Self.deliverAndReply(harness, display: display) {
                    #expect(names.delivered == Self.deliveredFields, "round \(round): \(names.delivered)")
                    #expect(names.reply == Self.replyFields, "round \(round): \(names.reply)")
                }
                let reply = try harness.call(
                    .post, "/mock/mail/m1/reply",
                    .object(
                        JSONObject([
                            ("text", .string(Self.hostile(&generator, around: "ok"))), ("subject", .string(subject)),
                        ])))
                #expect(
                    reply.status == 201 || (reply.status == 400 && reply.json?["field"] == .string("subject")),
                    "subject \(subject.debugDescription): \(reply.status)")
                if reply.status == 201, let last = harness.server.mailbox.records(where: { _ in true }).last {
                    #expect(Self.fieldNames(last.raw) == Self.replyFields, "subject \(subject.debugDescription)")
                }
            }
            #expect(accepted > 0, "some generated values (names, plain addresses) are accepted")
        }
    }

    /// The same values in a scenario file: a user's `email` and `relay_email` either load or are refused
    /// at their line and column; a scenario that loads delivers mail with exactly its own fields.
    @Test func generatedHostileScenarioAddressesAreRefusedWithTheirPosition() throws {
        var generator = SplitMix64(seed: 5322)
        let text = try #require(ScenarioFiles.read(ScenarioFiles.directory + "/relay-mail.yaml"))
        for round in 0..<40 {
            let key = round % 2 == 0 ? "email: bob@example.com" : "relay_email: \(Self.bob)"
            let base = round % 2 == 0 ? "bob@example.com" : Self.bob
            let value = Self.hostile(&generator, around: base)
            // A YAML double-quoted scalar: `\"`, `\\` and `\uXXXX` escapes.
            let escaped = value.unicodeScalars.map { scalar -> String in
                if scalar == "\"" || scalar == "\\" { return "\\" + String(scalar) }
                guard scalar.value < 0x20 || scalar.value >= 0x7F else { return String(scalar) }
                let hex = String(scalar.value, radix: 16)
                return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }.joined()
            let edited = text.replacing(key, with: key.prefix { $0 != ":" } + ": \"\(escaped)\"", maxReplacements: 1)
            do {
                let scenario = try ScenarioFiles.loader.load(edited, file: "relay-mail.yaml")
                let user = try #require(scenario.users.first { $0.id == "bob" })
                #expect(
                    AddrSpec.isValid(user.email) && AddrSpec.isValid(user.relayEmail ?? ""), "\(value.debugDescription)"
                )
            } catch {
                // file:line:col, and the reason when the value is no addr-spec (a valid one may still be
                // refused as a relay address outside privaterelay.appleid.com).
                let message = String(describing: error)
                #expect(message.contains("relay-mail.yaml:"), "\(message)")
                if !AddrSpec.isValid(value) { #expect(message.contains("is not an email address"), "\(message)") }
            }
        }
    }
}
