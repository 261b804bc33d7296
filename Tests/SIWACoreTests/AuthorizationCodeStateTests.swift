import SIWACore
import Testing

@Suite struct AuthorizationCodeStateTests {
    @Test func issuedCodeRedeemsOnceBeforeItsDeadline() {
        let (next, error) = AuthorizationCodeState.issued.handle(.redeem(now: 100, expiresAt: 400))
        #expect(next == .redeemed && error == nil)
        let again = next.handle(.redeem(now: 101, expiresAt: 400))
        #expect(again.next == .redeemed && again.error == .codeAlreadyUsed)
        #expect(again.error?.message == "The code has already been used.")
    }

    @Test func issuedCodeAtOrAfterDeadlineExpires() {
        let (next, error) = AuthorizationCodeState.issued.handle(.redeem(now: 400, expiresAt: 400))
        #expect(next == .expired)
        #expect(error?.code == .invalidGrant && error?.message == "The code has expired or has been revoked.")
    }

    @Test func terminalStatesStayTerminal() {
        for state in [AuthorizationCodeState.expired, .revoked] {
            #expect(state.handle(.redeem(now: 0, expiresAt: 10)) == (state, .codeExpiredOrRevoked))
            #expect(state.handle(.expire).next == state && state.handle(.revoke).next == state)
        }
    }

    @Test func revokeAndExpireTransitions() {
        #expect(AuthorizationCodeState.issued.handle(.revoke) == (.revoked, nil))
        #expect(AuthorizationCodeState.issued.handle(.expire) == (.expired, nil))
        #expect(AuthorizationCodeState.redeemed.handle(.revoke) == (.revoked, nil))
        #expect(AuthorizationCodeState.redeemed.handle(.expire) == (.redeemed, nil))
    }
}
