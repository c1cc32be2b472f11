/// "Did you mean" for mistyped option and command names.
enum Suggestion {
    /// The candidate closest to `typed`, when it is close enough to be a likely typo or a unique
    /// prefix; nil otherwise. Case is ignored.
    static func closest(to typed: String, in candidates: [String]) -> String? {
        let word = typed.lowercased()
        guard !word.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word, candidate.lowercased())
            guard distance <= allowedDistance(for: candidate) else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        if let best { return best.name }
        // "--qual" for "--quality": suggest only when one name starts with it.
        let prefixed = candidates.filter { word.count >= 3 && $0.lowercased().hasPrefix(word) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// How many edits still read as a typo: one for short names, up to three for long ones.
    private static func allowedDistance(for name: String) -> Int {
        switch name.count {
        case ...3: return 1
        case ...7: return 2
        default: return 3
        }
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbouring characters each cost one.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
