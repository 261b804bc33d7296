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
}
