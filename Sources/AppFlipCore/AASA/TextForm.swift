/// How a rule wants the URL's text: as written or percent-decoded, with case kept or folded.
struct TextForm: Hashable, Sendable {
    let decodes: Bool
    let foldsCase: Bool

    init(percentEncoded: Bool, caseSensitive: Bool) {
        self.decodes = !percentEncoded
        self.foldsCase = !caseSensitive
    }

    /// Which of `MatchInput`'s four per-form caches holds this form's text.
    var slot: Int { (decodes ? 2 : 0) + (foldsCase ? 1 : 0) }
}
