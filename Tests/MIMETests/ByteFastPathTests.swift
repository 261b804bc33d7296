import Testing

@testable import MIME

/// The byte-level fast paths (ASCII addresses and trimming, field names, mailbox lists) decide
/// exactly as the general paths they shortcut, on many generated inputs.
@Suite struct ByteFastPathTests {
    /// A small deterministic generator (SplitMix64), so a failure names a reproducible input.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static let pieces = [
        "a", "Z", "0", "9", ".", "..", "@", "-", "_", "+", "!", "\"", "[", "]", " ", "\t", "\r\n", "(", "<",
        "é", "\u{301}", "x.example", "privaterelay.appleid.com", String(repeating: "a", count: 63), "-a",
    ]

    static func text(_ generator: inout Generator) -> String {
        (0..<generator.next(8)).map { _ in pieces[generator.next(pieces.count)] }.joined()
    }

    @Test func asciiMailboxCheckAgreesWithTheCharacterRules() {
        var generator = Generator(state: 25)
        for _ in 0..<20_000 {
            let text = Self.text(&generator)
            #expect(
                MailAddress.isMailbox(Substring(text))
                    == MailAddress.isMailboxByCharacters(Substring(text)),
                "\(text.debugDescription)")
        }
        for text in [
            "a@b", "a.b@c-d.e", "\"q\"@x", "a@[1.2.3.4]", "a@[]", ".a@b", "a.@b", "a..b@c", "a@b.", "a@-b", "a@b-",
        ] {
            #expect(
                MailAddress.isMailbox(Substring(text)) == MailAddress.isMailboxByCharacters(Substring(text))
            )
        }
    }

    @Test func byteTrimmingAgreesWithCharacterTrimming() {
        var generator = Generator(state: 5)
        for _ in 0..<20_000 {
            let text = Substring(Self.text(&generator))
            #expect(text.trimmingSpaces == text.trimmingSpacesByCharacters, "\(text.debugDescription)")
        }
    }
}

extension ByteFastPathTests {
    @Test func mailboxListSplitsTheSameByBytesAndByCharacters() {
        var generator = Generator(state: 7)
        let parts = ["a@b.example", "\"x, y\"", " ", ",", "<", ">", "(", ")", "\\", "\"", "Shop", "\t", "c@d"]
        for _ in 0..<20_000 {
            let text = (0..<generator.next(10)).map { _ in parts[generator.next(parts.count)] }.joined()
            #expect(
                MailAddress.mailboxes(inField: text, asBytes: true).map(String.init)
                    == MailAddress.mailboxes(inField: text, asBytes: false).map(String.init), "\(text.debugDescription)"
            )
        }
    }

    @Test func fieldNamesCompareIgnoringCaseAsLowercasingDoes() {
        let names = [
            "From", "from", "FROM", "Fro", "Frm", "From:", "Subject", "sUbJeCt", "Kelvin", "\u{212A}elvin", "Ä", "ä",
            "[", "{",
        ]
        for first in names {
            for second in names {
                #expect(
                    MailMessage.sameName(first, second) == (first.lowercased() == second.lowercased()),
                    "\(first) \(second)")
            }
        }
    }
}

extension ByteFastPathTests {
    @Test func displayNamesAreFoundAsByCharacters() {
        for field in [
            "\"Shop\" <a@b.example>", "Shop <a@b>", "a@b", "<a@b>", "=?utf-8?q?Caf=C3=A9?= <a@b>", "Café <a@b>",
            "x <y> <a@b>", "\"a <b>\" <c@d>", "<\u{301}a@b>", " , Shop <a@b>",
        ] {
            let first = MailAddress.mailboxes(inField: field).first
            #expect(first?.lastIndexOfASCII(UInt8(ascii: "<")) == first?.lastIndex(of: "<"), "\(field)")
        }
    }
}
