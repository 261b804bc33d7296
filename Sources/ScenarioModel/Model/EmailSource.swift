/// A registered email source of a team ("Sign in with Apple for Email Communication" → Email
/// Sources): a domain or subdomain, or one sender address
/// (https://developer.apple.com/help/account/configure-app-capabilities/configure-private-email-relay-service).
///
/// The mock does no DNS: whether mail from the source passes the relay's SPF and DKIM checks is
/// declared here (`spf:` / `dkim:` in the scenario).
package struct EmailSource: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// A domain or subdomain, lowercased; matched exactly (a subdomain is its own source).
        case domain(String)
        /// One address, lowercased.
        case address(String)
    }

    package var kind: Kind
    /// Mail whose envelope sender (Return-Path) is in this domain, or is this address, passes SPF.
    package var passesSPF: Bool
    /// Mail whose header From is in this domain (or is this address) and carries a DKIM signature
    /// with `d=` equal to the From domain passes DKIM.
    package var passesDKIM: Bool

    package init(_ kind: Kind, passesSPF: Bool = true, passesDKIM: Bool = true) {
        self.kind = kind
        self.passesSPF = passesSPF
        self.passesDKIM = passesDKIM
    }

    /// `domain:example.com` / `address:news@example.com`, as the journal and mailbox name it.
    package var label: String {
        switch kind {
        case .domain(let domain): "domain:\(domain)"
        case .address(let address): "address:\(address)"
        }
    }

    /// Whether `address` (lowercased) is this source: the registered address, or any address whose
    /// domain is exactly the registered domain.
    package func covers(_ address: String) -> Bool {
        switch kind {
        case .address(let registered): return registered == address
        case .domain(let domain):
            guard let at = address.lastIndex(of: "@") else { return false }
            return address[address.index(after: at)...] == domain
        }
    }
}

/// Apple's caps on a team's email sources: 32 for individual accounts, 100 for organizations
/// (https://developer.apple.com/help/account/configure-app-capabilities/configure-private-email-relay-service).
package enum EmailSourceLimit {
    package static let individual = 32
    package static let organization = 100
}
