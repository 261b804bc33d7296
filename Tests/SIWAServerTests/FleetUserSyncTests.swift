import HTTP
import JSON
import SIWACore
import SIWAServer
import SIWATestSupport
import ScenarioModel
import Synchronization
import Testing

/// Runtime user changes through one replica's control API reach the others (docs/scale-out.md).
@Suite struct FleetUserSyncTests {
    @Test func userChangedAtOneReplicaIsReadBackFromAnother() throws {
        try FleetSyncTests.fleet { (a, b) throws in
            let events = Mutex(0)
            b.provider.observeUserEvents { _ in events.withLock { $0 += 1 } }
            let patched = try a.call(
                "PATCH", "/mock/users/bob", ["credential_state": "revoked", "email_forwarding": false])
            #expect(patched.status == 200)
            #expect(try a.server.fleet?.pullUsers() == [], "A does not re-apply its own change")
            #expect(try b.server.fleet?.pullUsers() == ["bob"], "B's poll applies it")
            let bob = try #require(try b.call("GET", "/mock/users/bob").json)
            #expect(bob["credential_state"] == .string("revoked"))
            #expect(bob["email_forwarding"] == .bool(false))
            #expect(events.withLock { $0 } == 0, "only the replica that took the request notifies")
            #expect(try b.server.fleet?.pullUsers() == [], "nothing new")
        }
    }

    @Test func usersAddedAndDeletedAtOneReplicaAreAddedAndDeletedAtAnother() throws {
        try FleetSyncTests.fleet { (a, b) throws in
            let added = try a.call(
                "POST", "/mock/users", ["id": "dave", "email": "dave@example.com", "private_email": true])
            #expect(added.status == 201)
            #expect(try b.server.fleet?.pullUsers() == ["dave"], "B's poll applies it")
            let dave = try #require(try b.call("GET", "/mock/users/dave").json)
            #expect(dave["sub"] == added.json?["sub"])
            #expect(dave["relay_email"] == added.json?["relay_email"])
            #expect(try b.call("DELETE", "/mock/users/dave").status == 200)
            #expect(try a.server.fleet?.pullUsers() == ["dave"])
            #expect(try a.call("GET", "/mock/users/dave").status == 404)
        }
    }

    @Test func aReplicaJoiningLaterTakesTheUsersChangedBefore() throws {
        let state = TestStore.fleetState()
        try ControlHarness.run(.inProcess, options: .init(fleetState: state)) { a throws in
            #expect(try a.call("PATCH", "/mock/users/carol", ["first_name": "Caroline"]).status == 200)
        }
        try ControlHarness.run(.inProcess, options: .init(fleetState: state)) { late throws in
            #expect(try late.server.fleet?.pullUsers() == ["carol"])
            #expect(try late.call("GET", "/mock/users/carol").json?["first_name"] == .string("Caroline"))
        }
    }

    @Test func aUserChangeThatCannotBePublishedIsUndoneAndAnswers503() throws {
        try ControlHarness.run(.inProcess, options: .init(fleetState: UnreachableFleetState())) { h throws in
            expectControlError(try h.call("PATCH", "/mock/users/bob", ["first_name": "Robert"]), 503, field: "store")
            #expect(try h.call("GET", "/mock/users/bob").json?["first_name"] != .string("Robert"))
            expectControlError(
                try h.call("POST", "/mock/users", ["id": "dave", "email": "dave@example.com"]), 503, field: "store")
            #expect(try h.call("GET", "/mock/users/dave").status == 404)
            expectControlError(try h.call("DELETE", "/mock/users/bob"), 503, field: "store")
            #expect(try h.call("GET", "/mock/users/bob").status == 200)
        }
    }

    @Test func userStatesSurviveTheirText() throws {
        var user = UserProfile(
            id: "u", sub: "000001.abc.0001", email: "u@example.com", emailVerified: false, privateEmail: true,
            relayEmail: "x@privaterelay.appleid.com", name: PersonName(firstName: "F", lastName: "L"),
            realUserStatus: .unknown, credentialState: .notFound, transferSub: "t", emailForwardingEnabled: false,
            teamSubs: ["TEAM2": "000002.def.0002"])
        user.sendsPrivateEmailClaim = false
        user.realUserStatusAlways = true
        user.consentedScopes = [.email]
        user.keychain = [SavedPassword(domain: "example.com", user: "u", password: "p")]
        let state = FleetUserState(id: "u", profile: user)
        #expect(FleetUserState(id: "u", text: state.text) == state)
        #expect(FleetUserState(id: "u", text: "") == FleetUserState(id: "u", profile: nil))
        #expect(FleetUserState(id: "other", text: state.text) == nil, "a state under another id is refused")
    }
}
