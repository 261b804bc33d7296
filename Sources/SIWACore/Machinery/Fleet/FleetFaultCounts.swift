/// One matching fault rule as the fleet counts it (`FleetState.countFaults`): the rule's `after` and
/// `times`, and whether this replica's probability draw hit.
package struct FleetFaultCount: Sendable, Equatable {
    package var ruleID: String
    package var after: Int
    package var times: Int?
    package var drawHit: Bool

    package init(ruleID: String, after: Int, times: Int?, drawHit: Bool) {
        self.ruleID = ruleID
        self.after = after
        self.times = times
        self.drawHit = drawHit
    }
}

/// What the fleet decided for one request: the position of the rule that fires (in the list sent),
/// and every listed rule's fleet-wide `matched` and `fired` counts after this request.
package struct FleetFaultOutcome: Sendable, Equatable {
    package var firing: Int?
    package var counts: [(matched: Int, fired: Int)]

    package init(firing: Int?, counts: [(matched: Int, fired: Int)]) {
        self.firing = firing
        self.counts = counts
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.firing == rhs.firing && lhs.counts.elementsEqual(rhs.counts) { $0 == $1 }
    }

    /// The engine's rule, applied to counters in hand: every listed rule counts the request; the first
    /// past `after`, under `times` and with its draw hit fires. `counters` are updated.
    package static func decide(_ rules: [FleetFaultCount], counters: inout [String: (matched: Int, fired: Int)])
        -> FleetFaultOutcome
    {
        var firing: Int?
        var counts: [(matched: Int, fired: Int)] = []
        for (position, rule) in rules.enumerated() {
            var count = counters[rule.ruleID] ?? (0, 0)
            count.matched += 1
            if firing == nil, count.matched > rule.after, rule.times.map({ count.fired < $0 }) ?? true, rule.drawHit {
                count.fired += 1
                firing = position
            }
            counters[rule.ruleID] = count
            counts.append(count)
        }
        return FleetFaultOutcome(firing: firing, counts: counts)
    }
}
