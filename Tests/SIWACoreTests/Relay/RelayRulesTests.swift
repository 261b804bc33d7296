import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct RelayRulesTests {
    static let team = Team(
        id: "ABCDE12345",
        emailSources: [
            EmailSource(.domain("shop.example")),
            EmailSource(.domain("mail.shop.example"), passesSPF: false, passesDKIM: true),
            EmailSource(.address("news@letters.example"), passesSPF: false, passesDKIM: true),
            EmailSource(.address("ops@spf-only.example"), passesSPF: true, passesDKIM: false),
        ])

    struct SenderCase: Sendable, CustomStringConvertible {
        var envelope: String
        var from: String?
        var dkim: [String]
        var accepted: Bool
        var reason: String
        var description: String { "\(envelope) / \(from ?? "-") / \(dkim)" }
    }

    static let senderCases: [SenderCase] = [
        .init(envelope: "a@shop.example", from: "a@shop.example", dkim: [], accepted: true, reason: "SPF pass"),
        .init(envelope: "a@SHOP.example", from: "Hello@Shop.Example", dkim: [], accepted: true, reason: "SPF pass"),
        // SPF: the envelope domain must match exactly; a subdomain is its own source.
        .init(
            envelope: "b@bounce.shop.example", from: "a@shop.example", dkim: [], accepted: false,
            reason: "neither SPF"),
        .init(
            envelope: "b@esp.example", from: "a@shop.example", dkim: ["shop.example"], accepted: true,
            reason: "DKIM pass"),
        .init(
            envelope: "b@esp.example", from: "a@shop.example", dkim: ["esp.example"], accepted: false,
            reason: "does not match shop.example"),
        .init(
            envelope: "", from: "x@mail.shop.example", dkim: ["mail.shop.example"], accepted: true, reason: "DKIM pass"),
        .init(
            envelope: "x@mail.shop.example", from: "x@mail.shop.example", dkim: [], accepted: false,
            reason: "neither SPF"),
        .init(
            envelope: "bounce@esp.example", from: "news@letters.example", dkim: ["letters.example"], accepted: true,
            reason: "DKIM pass"),
        .init(
            envelope: "bounce@esp.example", from: "other@letters.example", dkim: ["letters.example"], accepted: false,
            reason: "not a registered email source"),
        .init(
            envelope: "ops@spf-only.example", from: "ops@spf-only.example", dkim: [], accepted: true, reason: "SPF pass"
        ),
        .init(
            envelope: "x@esp.example", from: "ops@spf-only.example", dkim: ["spf-only.example"], accepted: false,
            reason: "fails DKIM"),
        .init(envelope: "a@shop.example", from: nil, dkim: [], accepted: false, reason: "no parsable From"),
        .init(
            envelope: "a@evil.example", from: "a@evil.example", dkim: [], accepted: false, reason: "not a registered"),
    ]

    @Test(arguments: senderCases) func senderRules(_ example: SenderCase) {
        let decision = RelayRules.checkSender(
            envelopeSender: example.envelope, headerFrom: example.from, dkimDomains: example.dkim, team: Self.team)
        #expect((decision.outcome == .accepted) == example.accepted)
        #expect(decision.reason.contains(example.reason), "\(decision.reason)")
        if !example.accepted {
            #expect(decision.replyText == "550 5.1.1 <\(example.envelope)>: unauthorized sender")
        }
    }

    static let scenario = Scenario(
        teams: [team],
        users: [
            UserProfile(
                id: "bob", sub: "001.b.1", email: "bob@example.com", privateEmail: true,
                relayEmail: "k7x2m9q4ab@privaterelay.appleid.com"),
            UserProfile(
                id: "dana", sub: "001.d.1", email: "dana@example.net", privateEmail: true,
                relayEmail: "d4n4off123@privaterelay.appleid.com", emailForwardingEnabled: false),
        ])

    @Test func recipientRulesInOrder() throws {
        // The built-in scenario (signing keys, clients, team ABCDE12345) with these users.
        var scenario = Scenario.builtIn
        scenario.users = Self.scenario.users
        let snapshot = try TestFixtures.provider(scenario: scenario, clock: TestFixtures.clock()).snapshot
        #expect(snapshot.scenario.primaryTeamID == Self.team.id)
        let cases: [(String, Int, String, RelayDecision.Outcome)] = [
            ("someone@gmail.example", 0, "550 5.7.1", .rejected),
            ("nobody12ab@privaterelay.appleid.com", 0, "550 5.1.1", .rejected),
            ("d4n4off123@privaterelay.appleid.com", 0, "550 5.1.1", .rejected),
            ("K7X2M9Q4AB@privaterelay.appleid.com", 99, "250 2.1.5", .accepted),
            ("k7x2m9q4ab@privaterelay.appleid.com", 100, "450 4.2.1", .deferred),
        ]
        for (address, count, prefix, outcome) in cases {
            let (decision, _) = RelayRules.checkRecipient(address, in: snapshot) { _ in count }
            #expect(decision.outcome == outcome, "\(address)")
            #expect(decision.replyText.hasPrefix(prefix), "\(address): \(decision.replyText)")
        }
        let (off, recipient) = RelayRules.checkRecipient("d4n4off123@privaterelay.appleid.com", in: snapshot) {
            _ in 0
        }
        #expect(off.reason.contains("turned off email forwarding") && recipient?.user.id == "dana")
    }

    @Test func theDevelopersRelayAddressIsStableAndReadable() {
        let one = RelayRules.developerRelayAddress(for: "News@Shop.example", relayAddress: "a@privaterelay.appleid.com")
        #expect(
            one
                == RelayRules.developerRelayAddress(
                    for: "news@shop.example", relayAddress: "A@privaterelay.appleid.com"))
        #expect(one.hasPrefix("news_at_shop_example_") && one.hasSuffix("@privaterelay.appleid.com"))
        #expect(
            one
                != RelayRules.developerRelayAddress(
                    for: "news@shop.example", relayAddress: "b@privaterelay.appleid.com"))
    }

    @Test func rfc5322DatesForReceivedFields() {
        #expect(TimeText.rfc5322(milliseconds: 1_767_258_000_000) == "Thu, 01 Jan 2026 09:00:00 +0000")
        #expect(TimeText.rfc5322(milliseconds: 0) == "Thu, 01 Jan 1970 00:00:00 +0000")
    }
}
