/// Accounts deleted since the last reset, by every identifier they were known by (scenario id, `sub` in
/// each team, email), so a later question about one of them can say why it is `notFound` ("deleted at
/// …") in the journal and log. Bounded: past `capacity` deletions the oldest is forgotten, and the
/// answer stays `notFound` with a plainer reason.
struct DeletedAccounts: Sendable {
    static let capacity = 256

    struct Deletion: Sendable, Equatable {
        var userID: String
        var timeMilliseconds: Int64
    }

    /// User ids, oldest deletion first, with the identifiers each was recorded under.
    private var order: [(userID: String, identifiers: [String])] = []
    private var byIdentifier: [String: Deletion] = [:]

    /// Records that `userID` was deleted at `timeMilliseconds`, known by `identifiers`.
    mutating func record(userID: String, identifiers: [String], timeMilliseconds: Int64) {
        let deletion = Deletion(userID: userID, timeMilliseconds: timeMilliseconds)
        for identifier in identifiers { byIdentifier[identifier] = deletion }
        order.append((userID, identifiers))
        if order.count > Self.capacity {
            let oldest = order.removeFirst()
            for identifier in oldest.identifiers where byIdentifier[identifier]?.userID == oldest.userID {
                byIdentifier[identifier] = nil
            }
        }
    }

    /// The latest deletion of an account once known by `identifier`.
    func deletion(of identifier: String) -> Deletion? { byIdentifier[identifier] }

    var count: Int { order.count }
}
