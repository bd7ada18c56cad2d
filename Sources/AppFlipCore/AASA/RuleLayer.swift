/// The rule keys one level sets. Levels stack: a component over its entry's `defaults` over the document's
/// `defaults`; for each key the most specific level that sets it wins.
struct RuleLayer {
    var path: Located<String>?
    var query: Located<JSONValue>?
    var fragment: Located<String>?
    var exclude: Bool?
    var caseSensitive: Bool?
    var percentEncoded: Bool?

    func overriding(_ base: RuleLayer) -> RuleLayer {
        RuleLayer(
            path: path ?? base.path,
            query: query ?? base.query,
            fragment: fragment ?? base.fragment,
            exclude: exclude ?? base.exclude,
            caseSensitive: caseSensitive ?? base.caseSensitive,
            percentEncoded: percentEncoded ?? base.percentEncoded
        )
    }
}
