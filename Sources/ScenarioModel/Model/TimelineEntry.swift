/// One scripted step of a scenario: a trigger and the actions it runs once.
package struct TimelineEntry: Sendable, Equatable {
    package enum Trigger: Sendable, Equatable {
        /// When the mock clock reaches load time + this many milliseconds (`at: 10m`).
        case at(milliseconds: Int64)
        /// Right after the `count`-th request matching `matcher` has been answered
        /// (`after: 2 POST /auth/token with grant_type=refresh_token for alice`).
        case afterRequests(count: Int, matcher: RequestMatcher)
    }

    package var trigger: Trigger
    package var actions: [TimelineAction]

    package init(trigger: Trigger, actions: [TimelineAction]) {
        self.trigger = trigger
        self.actions = actions
    }
}

/// A change the timeline makes, through the same runtime API as the control endpoints.
package enum TimelineAction: Sendable, Equatable {
    /// Change user fields (revoke consent with `credential_state: revoked`, switch relay forwarding off,
    /// mark as transferred, …).
    case updateUser(String, UserChange)
    /// The user deletes their Apple Account.
    case deleteUser(String)
    /// Add a key (from the scenario's PEM) that signs from now on; the old signer stays published.
    case rotateKey(SigningKey)
    /// Make an existing key sign (and be published).
    case signWith(kid: String)
    case publishKey(kid: String)
    case retireKey(kid: String)
    case startFault(id: String)
    case stopFault(id: String)
    /// Send a server-to-server notification (`consent-revoked`, `email-disabled`, …) about a user, to
    /// `clientID`'s app group or to every group the user used that has an endpoint.
    case notify(UserEvent.Kind, user: String, clientID: String?)

    /// Whether the action changes the signing key set.
    package var changesKeys: Bool {
        switch self {
        case .rotateKey, .signWith, .publishKey, .retireKey: true
        default: false
        }
    }

    /// Whether the action changes a user (their profile or their account's existence).
    package var changesUsers: Bool {
        switch self {
        case .updateUser, .deleteUser: true
        default: false
        }
    }

    /// One line for the log: `update_user alice`, `retire_key Pb7Yt1ZcQ9`, …
    package var summary: String {
        switch self {
        case .updateUser(let user, _): "update_user \(user)"
        case .deleteUser(let user): "delete_user \(user)"
        case .rotateKey(let key): "rotate_key \(key.kid)"
        case .signWith(let kid): "sign_with \(kid)"
        case .publishKey(let kid): "publish_key \(kid)"
        case .retireKey(let kid): "retire_key \(kid)"
        case .startFault(let id): "start_fault \(id)"
        case .stopFault(let id): "stop_fault \(id)"
        case .notify(let kind, let user, _): "notify \(kind) \(user)"
        }
    }
}
