/// One component (or legacy path) ready to decide URLs: its defaults applied and its patterns compiled.
/// Every URL component the rule names must match; one it does not name matches anything.
/// A class, immutable: deciding walks many rules per URL, and a reference costs one retain where this
/// many fields would cost one each.
final class CompiledRule: Sendable {
    /// A path pattern, compared with the URL path after both lost their leading and trailing `/` runs.
    struct PathTest: Sendable {
        let pattern: Pattern
        /// For a pattern ending in `/*`, the pattern without it: `/buy/*` also matches `/buy`.
        let parent: Pattern?

        func matches(_ path: ArraySlice<UInt8>) -> Bool {
            pattern.matches(path) || (parent?.matches(path) ?? false)
        }
    }

    /// One named query item. Every occurrence of the name must match; an absent item compares as "".
    struct QueryItemTest: Sendable {
        let name: [UInt8]
        let pattern: Pattern
        let matchesAbsentItem: Bool
    }

    enum QueryTest: Sendable {
        /// `"?": "…"`: the whole query string.
        case whole(Pattern)
        /// `"?": {…}`: only the named items.
        case items([QueryItemTest])
    }

    let path: PathTest?
    let query: QueryTest?
    let fragment: Pattern?
    let excludes: Bool
    let form: TextForm
    /// The rule as written, for `AppDecision.rule`.
    let text: String
    let pointer: String
    /// The path pattern as written (`/buy/*`), from which drift reports make a URL to compare files on.
    let writtenPath: String?

    init(
        path: PathTest?,
        query: QueryTest?,
        fragment: Pattern?,
        excludes: Bool,
        form: TextForm,
        text: String,
        pointer: String,
        writtenPath: String?
    ) {
        self.writtenPath = writtenPath
        self.path = path
        self.query = query
        self.fragment = fragment
        self.excludes = excludes
        self.form = form
        self.text = text
        self.pointer = pointer
    }

    /// True when the rule accepts (or excludes) every URL, so any rule after it never runs.
    var matchesEverything: Bool {
        if let path, !path.pattern.matchesEverything { return false }
        if let fragment, !fragment.matchesEverything { return false }
        switch query {
        case nil: return true
        case .whole(let pattern): return pattern.matchesEverything
        case .items(let items): return items.allSatisfy { $0.pattern.matchesEverything }
        }
    }

    func matches(_ input: inout MatchInput) -> Bool {
        // A lone `*` needs no input: the URL's part is not made (copied, decoded, case-folded) for it, as for
        // `{"/": "*"}`, a common component whose making Benchmarks/instructions-per-handoff shows on every handoff.
        if let path, !path.pattern.matchesEverything, !path.matches(input.path(form)) { return false }
        switch query {
        case nil:
            break
        case .whole(let pattern):
            if !pattern.matchesEverything, !pattern.matches(input.query(form)) { return false }
        case .items(let tests):
            let items = input.queryItems(form)
            for test in tests {
                var present = false
                for item in items where item.name.elementsEqual(test.name) {
                    present = true
                    if !test.pattern.matches(item.value) { return false }
                }
                if !present && !test.matchesAbsentItem { return false }
            }
        }
        if let fragment, !fragment.matchesEverything, !fragment.matches(input.fragment(form)) { return false }
        return true
    }
}

/// One `details` entry, compiled.
struct CompiledDetail: Sendable {
    let appIDs: [String]
    let rules: [CompiledRule]
}
