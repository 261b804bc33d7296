/// A `client_id` Apple knows: an App ID (native bundle ID) or a Services ID (web / Android).
public struct Client: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// An App ID; its codes come from the device and carry no redirect_uri.
        case native
        /// A Services ID; used by `/auth/authorize` with registered return URLs.
        case services
    }

    /// The client_id, matched case-sensitively.
    public var id: String
    public var teamID: String
    public var kind: Kind
    /// Registered return URLs (Services IDs only), matched exactly.
    public var redirectURIs: [String]
    /// The app group (consent-sharing group) this client belongs to, if not declared in `appGroups`.
    public var appGroupID: String?
    /// The Associated Domains entitlement (`webcredentials:example.com`, …), `associated_domains:`.
    package var associatedDomains: [String] = []

    public init(id: String, teamID: String, kind: Kind, redirectURIs: [String] = [], appGroupID: String? = nil) {
        self.id = id
        self.teamID = teamID
        self.kind = kind
        self.redirectURIs = redirectURIs
        self.appGroupID = appGroupID
    }
}

/// Apps grouped under one primary App ID: they share consent, so `user` is sent once per group.
public struct AppGroup: Sendable, Equatable {
    public var id: String
    /// The primary App ID (bundle ID) of the group.
    public var primaryAppID: String
    public var clientIDs: [String]
    /// Server-to-server notification endpoint of the group (absolute http URL), if registered.
    public var notificationURL: String?

    public init(id: String, primaryAppID: String, clientIDs: [String], notificationURL: String? = nil) {
        self.notificationURL = notificationURL
        self.id = id
        self.primaryAppID = primaryAppID
        self.clientIDs = clientIDs
    }
}
