import MIME
import Testing

@testable import SIWAServer

/// The relay rewrite's byte-level shortcuts decide as the String operations they replace.
@Suite struct RelayRewritingFastPathTests {
    @Test func encodedWordStartIsFoundAsStringContainsFindsIt() {
        for phrase in ["=?utf-8?q?Caf=C3=A9?=", "Shop", "a=b?c", "=?", "=", "?=", "x=?\u{301}", "é=?x", "\"=?\"", ""] {
            #expect(RelayRewriting.containsEncodedWordStart(phrase) == phrase.contains("=?"), "\(phrase)")
        }
    }

    @Test func fromFieldIsRecognisedInAnyCaseAndNothingElse() {
        for (line, expected) in [
            ("From: a", true), ("FROM:a", true), ("fRoM: x", true), ("From :", false), ("Fro", false),
            ("Frommer: x", false), ("Sender: x", false), ("From\u{1A}", false),
        ] {
            #expect(RelayRewriting.startsWithFromField(Array(line.utf8)[...]) == expected, "\(line)")
            #expect(
                RelayRewriting.startsWithFromField(Array(line.utf8)[...])
                    == (line.utf8.count >= 5
                        && String(decoding: Array(line.utf8).prefix(5), as: UTF8.self).lowercased() == "from:"))
        }
    }

    /// The red team's display name (issue 36 finding 3) and its kin: no CR, LF, NUL or line separator
    /// of a name reaches the rewritten From, whichever branch (quoted string, encoded words, re-quoted)
    /// would have kept it.
    @Test func noLineBreakOfADisplayNameSurvivesTheRewrite() {
        for phrase in [
            "\"Shop\\\" \rBcc: evil@attacker.example\r\"", "\"Shop\rBcc: x\"", "\"Shop\u{0}\"", "Shop\r\nBcc: x",
            "=?utf-8?q?A?=\rBcc: x", "Shop\u{2028}Bcc: x", "Shop\u{85}x", "\"a\nb\"",
        ] {
            let written = RelayRewriting.displayPhrase(phrase, address: "a@b.example")
            #expect(!written.unicodeScalars.contains(where: MailMessage.breaksLine), "\(phrase) → \(written)")
            #expect(written.hasPrefix("\"") && written.hasSuffix("\""), "\(written)")
        }
        #expect(RelayRewriting.displayPhrase("\"Shop\"", address: "a@b.example") == "\"Shop\"")
    }
}
