/// A `client_id` Apple knows: an App ID (native bundle ID) or a Services ID (web / Android).
package struct Client: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable {
        /// An App ID; its codes come from the device and carry no redirect_uri.
        case native
        /// A Services ID; used by `/auth/authorize` with registered return URLs.
        case services
    }

    /// The longest `name` a scenario may give (the sheet shows it in one heading).
    package static let maximumNameBytes = 128

    /// The client_id, matched case-sensitively.
    package var id: String
    package var teamID: String
    package var kind: Kind
    /// Registered return URLs (Services IDs only), matched exactly.
    package var redirectURIs: [String]
    /// The app group (consent-sharing group) this client belongs to, if not declared in `appGroups`.
    package var appGroupID: String?
    /// The app's name as the consent sheet shows it ("Create your <name> account…"); nil shows the
    /// client_id. Apple takes it from the Services ID's description in the developer portal.
    package var name: String?
    /// The Associated Domains entitlement (`webcredentials:example.com`, …), `associated_domains:`.
    package var associatedDomains: [String] = []

    package init(
        id: String, teamID: String, kind: Kind, redirectURIs: [String] = [], appGroupID: String? = nil,
        name: String? = nil
    ) {
        self.name = name
        self.id = id
        self.teamID = teamID
        self.kind = kind
        self.redirectURIs = redirectURIs
        self.appGroupID = appGroupID
    }
}

/// Apps grouped under one primary App ID: they share consent, so `user` is sent once per group.
package struct AppGroup: Sendable, Equatable {
    package var id: String
    /// The primary App ID (bundle ID) of the group.
    package var primaryAppID: String
    package var clientIDs: [String]
    /// Server-to-server notification endpoint of the group (absolute http URL), if registered.
    package var notificationURL: String?

    package init(id: String, primaryAppID: String, clientIDs: [String], notificationURL: String? = nil) {
        self.notificationURL = notificationURL
        self.id = id
        self.primaryAppID = primaryAppID
        self.clientIDs = clientIDs
    }
}
