/// Edit distance for "did you mean" suggestions.
package enum EditDistance {
    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions), over Unicode scalars.
    static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a.unicodeScalars)
        let t = Array(b.unicodeScalars)
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        var previous2 = [Int](repeating: 0, count: t.count + 1)
        var previous = Array(0...t.count)
        var current = [Int](repeating: 0, count: t.count + 1)
        for i in 1...s.count {
            current[0] = i
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                    best = min(best, previous2[j - 2] + 1)
                }
                current[j] = best
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[t.count]
    }

    /// The closest candidate within a distance of about a third of the word's length (at least 1,
    /// at most 3); ties go to the earlier candidate. Words over 64 scalars get no suggestion.
    package static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
        let length = word.unicodeScalars.count
        guard length <= 64 else { return nil }
        let limit = min(3, max(1, length / 3))
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(word, candidate)
            if d <= limit, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }
}
