/// One entry of Android 15's `dynamic_app_link_components`: a rule that narrows, per host, which of a
/// verified app's URLs it opens.
///
/// StatementService reads it in `network/retriever/StatementParser.kt` (`parseComponent`: `exclude`, `#`,
/// `/`, `?` as a map of parameter name to value expression, `comments`), and the package manager applies the
/// rules in order as `UriRelativeFilterGroup`s: the first rule whose every part matches decides, allowing
/// or (with `exclude`) blocking; a URL no rule matches is blocked; a rule with no part matches nothing
/// (`UriRelativeFilterGroup.matchGroupsToUri`, `matchData`). A query part matches when any `&`-separated
/// parameter matches `name=value` (`UriRelativeFilter.matchQuery`); joining name and value expression into
/// one DAL expression is this model's reading, not a copied rule.
public struct DynamicAppLinkRule: Sendable, Hashable {
    public let exclude: Bool
    public let path: String?
    /// Query parameter name → value expression.
    public let query: [String: String]?
    public let fragment: String?
    public let comments: String?
    /// Where the rule was written, e.g. `/0/relation_extensions/…/dynamic_app_link_components/1`.
    public let pointer: String

    public init(
        exclude: Bool = false,
        path: String? = nil,
        query: [String: String]? = nil,
        fragment: String? = nil,
        comments: String? = nil,
        pointer: String = ""
    ) {
        self.exclude = exclude
        self.path = path
        self.query = query
        self.fragment = fragment
        self.comments = comments
        self.pointer = pointer
    }

    /// Whether every part the rule has matches `uri`; a rule without parts matches nothing. An empty
    /// expression is refused by the parser, so a part written that way never matches.
    public func matches(_ uri: AndroidURI) -> Bool {
        var parts = 0
        if let path {
            parts += 1
            guard let matcher = try? DynamicComponentExpression.matcher(path), matcher.matches(uri.path) else { return false }
        }
        if let fragment {
            parts += 1
            guard let matcher = try? DynamicComponentExpression.matcher(fragment), let value = uri.fragment, matcher.matches(value) else {
                return false
            }
        }
        for (name, value) in (query ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts += 1
            guard let matcher = try? DynamicComponentExpression.matcher(name + "=" + value), let query = uri.query else { return false }
            var parameters = query.split(separator: "&", omittingEmptySubsequences: false)
            if parameters.count == 1 { parameters = query.split(separator: ";", omittingEmptySubsequences: false) }
            guard parameters.contains(where: { matcher.matches(String($0)) }) else { return false }
        }
        return parts > 0
    }

    /// What a host's rules decide for `uri`: the first matching rule, or none.
    public static func decide(_ rules: [DynamicAppLinkRule], for uri: AndroidURI) -> Decision {
        guard !rules.isEmpty else { return .noRules }
        guard let index = rules.firstIndex(where: { $0.matches(uri) }) else { return .noRuleMatched }
        return rules[index].exclude ? .excluded(by: rules[index]) : .allowed(by: rules[index])
    }

    public enum Decision: Sendable, Hashable {
        /// The statement has no dynamic rules: the manifest's filters alone decide.
        case noRules
        case allowed(by: DynamicAppLinkRule)
        case excluded(by: DynamicAppLinkRule)
        /// Rules exist and none matches: the URL is blocked.
        case noRuleMatched
    }
}
