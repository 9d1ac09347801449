/// "Did you mean …?" for misspelt role names in theme files.
extension ThemeRole {
    /// The role whose name is closest to `name`, if it is close enough to be a likely typo.
    ///
    /// Close enough means an edit distance (insertions, deletions, substitutions, ignoring
    /// case and treating `_` and space as `-`) of at most 2, or at most 1 for names of four
    /// characters or fewer. Ties go to the role declared first.
    ///
    /// ```swift
    /// ThemeRole.closest(to: "hitt")        // .hit
    /// ThemeRole.closest(to: "ttl_expired") // .ttlExpired
    /// ThemeRole.closest(to: "banana")      // nil
    /// ```
    public static func closest(to name: String) -> ThemeRole? {
        let normalized = name.lowercased().map { $0 == "_" || $0 == " " ? "-" : $0 }
        let limit = normalized.count <= 4 ? 1 : 2
        var best: (role: ThemeRole, distance: Int)?
        for role in allCases {
            let distance = editDistance(normalized, Array(role.rawValue))
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (role, distance)
            }
        }
        return best?.role
    }

    /// Levenshtein distance over characters, with one rolling row.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
