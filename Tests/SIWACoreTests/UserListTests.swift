import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// The persistent user list and index (issue #11: a user change costs O(log n), not a copy of every
/// user). Behaviour against an array / dictionary model under random changes, and structural sharing
/// between provider snapshots, counted in nodes rather than timed.
@Suite struct UserListTests {
    /// A small deterministic generator (the tests need no real randomness).
    struct Steps {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func user(_ n: Int) -> UserProfile {
        UserProfile(id: "u\(n)", sub: "000000.\(n).0000", email: "u\(n)@example.com")
    }

    @Test func matchesAnArrayUnderRandomChanges() {
        var model = (0..<70).map(Self.user)
        var list = UserList(model)
        var steps = Steps(state: 11)
        var added = 1_000
        for _ in 0..<3_000 {
            switch steps.next(20) {
            case 0..<8:
                added += 1
                model.append(Self.user(added))
                list.append(Self.user(added))
            case 8..<14 where !model.isEmpty:
                let ordinal = steps.next(model.count)
                model[ordinal].email = "e\(added)@example.com"
                list[list.index(list.startIndex, offsetBy: ordinal)].email = "e\(added)@example.com"
            case 14..<19 where !model.isEmpty:
                let ordinal = steps.next(model.count)
                let removed = list.remove(at: list.index(list.startIndex, offsetBy: ordinal)).user
                #expect(removed == model.remove(at: ordinal))
            case 19 where !model.isEmpty:
                model.removeLast()
                list.removeLast()
            default:
                continue
            }
            #expect(list.count == model.count)
            #expect(Array(list) == model)
            #expect(Array(list.reversed()) == model.reversed())
            #expect(list.first == model.first)
        }
        #expect(list == UserList(model), "equal to a list built from the same users")
    }

    /// Keys whose hashes collide on purpose, so the map's collision slots and splits are exercised.
    struct Crowded: Hashable, Sendable {
        let value: Int
        func hash(into hasher: inout Hasher) { hasher.combine(value % 7) }
    }

    @Test func persistentMapMatchesADictionary() {
        var strings = PersistentMap<String, Int>()
        var crowded = PersistentMap<Crowded, Int>()
        var model: [Int: Int] = [:]
        var steps = Steps(state: 5)
        for round in 0..<4_000 {
            let key = steps.next(600)
            if steps.next(3) == 0 {
                #expect(strings.removeValue(forKey: "k\(key)") == model[key])
                #expect(crowded.removeValue(forKey: Crowded(value: key)) == model[key])
                model[key] = nil
            } else {
                #expect(strings.updateValue(round, forKey: "k\(key)") == model[key])
                #expect(crowded.updateValue(round, forKey: Crowded(value: key)) == model[key])
                model[key] = round
            }
            #expect(strings.count == model.count && crowded.count == model.count)
        }
        for key in 0..<700 {
            #expect(strings["k\(key)"] == model[key])
            #expect(crowded[Crowded(value: key)] == model[key])
        }
        let built = PersistentMap(model.map { ("k\($0.key)", $0.value) })
        #expect(built.count == model.count && model.allSatisfy { built["k\($0.key)"] == $0.value })
    }

    /// One add, edit or delete among 20,000 users: the new snapshot shares all but a path of nodes with
    /// the previous one (a copy of the list and its index would not share any of its ~1,900 nodes).
    @Test func aUserChangeCopiesOnlyAPath() throws {
        var scenario = Scenario.builtIn
        scenario.users = UserList((0..<20_000).map(Self.user))
        let provider = try TestFixtures.provider(scenario: scenario, clock: TestFixtures.clock())
        let total = provider.snapshot.userTablesNotShared(with: nil)
        #expect(total > 1_500, "the comparison means something: \(total) nodes in all")

        let changes: [(String, () throws -> Void)] = [
            ("add", { _ = try provider.addUser(UserProfile(id: "new", sub: "", email: "new@example.com")) }),
            ("edit", { _ = try provider.updateUser("u12345", UserChange(firstName: "Edited")) }),
            ("delete", { _ = try provider.deleteAccount("u777") }),
        ]
        for (name, change) in changes {
            let before = provider.snapshot
            try change()
            let copied = provider.snapshot.userTablesNotShared(with: before)
            // List path (3 levels at 20,000) + two index paths (≈4 levels each) + a split or two.
            #expect(copied <= 16, "\(name) copied \(copied) of \(total) nodes")
        }
        #expect(provider.scenario.users.count == 20_000)
        #expect(provider.user(named: "new")?.email == "new@example.com")
        #expect(provider.user(named: "u12345")?.name.firstName == "Edited")
        #expect(provider.user(named: "u777") == nil && provider.user(named: "u778") != nil)
    }

    /// Deleting most users compacts the list; the index follows, and every remaining user is found.
    @Test func deletesCompactAndTheIndexFollows() throws {
        var scenario = Scenario.builtIn
        scenario.users = UserList((0..<300).map(Self.user))
        let provider = try TestFixtures.provider(scenario: scenario, clock: TestFixtures.clock())
        for n in stride(from: 0, to: 300, by: 3) { try provider.deleteAccount("u\(n)") }
        for n in stride(from: 1, to: 300, by: 3) { try provider.deleteAccount("u\(n)") }
        #expect(provider.scenario.users.count == 100)
        for n in 0..<300 { #expect((provider.user(named: "u\(n)") != nil) == (n % 3 == 2), "u\(n)") }
        try provider.addUser(UserProfile(id: "late", sub: "", email: "late@example.com"))
        #expect(provider.scenario.users.last?.id == "late" && provider.user(named: "late") != nil)
        #expect(throws: ProviderChangeError.self) {
            try provider.addUser(UserProfile(id: "x", sub: "000000.5.0000", email: "x@example.com"))
        }
    }

    /// Deletions are remembered for the credential-state reason, the latest 256 only (bounded).
    @Test func deletionsAreRememberedBoundedly() throws {
        var scenario = Scenario.builtIn
        scenario.users = UserList((0..<300).map(Self.user))
        let provider = try TestFixtures.provider(scenario: scenario, clock: TestFixtures.clock())
        for n in 0..<300 { try provider.deleteAccount("u\(n)") }
        let forgotten = try provider.credentialStateAnswer(user: "u0", clientID: "com.example.app")
        let remembered = try provider.credentialStateAnswer(user: "u299", clientID: "com.example.app")
        #expect(forgotten.state == .notFound && forgotten.reason?.hasPrefix("no user has the identifier 'u0'") == true)
        #expect(remembered.state == .notFound && remembered.reason?.hasPrefix("user 'u299' (identifier") == true)
    }
}
