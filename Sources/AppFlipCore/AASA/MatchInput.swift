/// One URL's path, query and fragment in the forms rules compare against. Each form is computed the first
/// time a rule asks for it, then shared by every rule and every app that looks at the same URL.
struct MatchInput {
    private let rawPath: String
    private let rawQuery: String
    private let rawFragment: String
    private var paths = FormSlots<ArraySlice<UInt8>>()
    private var queries = FormSlots<ArraySlice<UInt8>>()
    private var queryItemLists = FormSlots<[QueryItem]>()
    private var fragments = FormSlots<ArraySlice<UInt8>>()

    init(_ url: RawURL) {
        rawPath = url.path
        rawQuery = url.query ?? ""
        rawFragment = url.fragment ?? ""
    }

    /// The path with its leading and trailing runs of `/` removed (after decoding, so `%2F` at an end goes too):
    /// `/buy/`, `/buy//` and `buy` all compare as `buy`, and `/` or an empty path as the empty string.
    mutating func path(_ form: TextForm) -> ArraySlice<UInt8> {
        if let known = paths[form] { return known }
        let text = Self.transform(Array(rawPath.utf8)[...], form)
        let slash = UInt8(ascii: "/")
        let start = text.firstIndex { $0 != slash } ?? text.endIndex
        let end = text[start...].lastIndex { $0 != slash }.map { $0 + 1 } ?? start
        paths[form] = text[start..<end]
        return text[start..<end]
    }

    /// The whole query; empty when the URL has none.
    mutating func query(_ form: TextForm) -> ArraySlice<UInt8> {
        if let known = queries[form] { return known }
        let text = Self.transform(Array(rawQuery.utf8)[...], form)
        queries[form] = text
        return text
    }

    /// The query split at `&`, each item split at its first `=` before decoding, so an encoded `%26` or `%3D`
    /// stays inside its item. Empty items (`a=1&&b=2`) are skipped. `+` is not a space: AASA compares URLs,
    /// not form submissions.
    mutating func queryItems(_ form: TextForm) -> [QueryItem] {
        if let known = queryItemLists[form] { return known }
        let items = FormEncoding.fields(of: Array(rawQuery.utf8)[...]).map { name, value in
            QueryItem(name: Self.transform(name, form), value: Self.transform(value, form))
        }
        queryItemLists[form] = items
        return items
    }

    /// The fragment; empty when the URL has none.
    mutating func fragment(_ form: TextForm) -> ArraySlice<UInt8> {
        if let known = fragments[form] { return known }
        let text = Self.transform(Array(rawFragment.utf8)[...], form)
        fragments[form] = text
        return text
    }

    private static func transform(_ raw: ArraySlice<UInt8>, _ form: TextForm) -> ArraySlice<UInt8> {
        var text = raw
        if form.decodes { text = TextTransform.percentDecoded(text)[...] }
        if form.foldsCase { text = TextTransform.caseFolded(text)[...] }
        return text
    }
}

/// Four cached values, one per `TextForm`, without a dictionary on the hot path.
private struct FormSlots<Value> {
    private var slots: (Value?, Value?, Value?, Value?) = (nil, nil, nil, nil)

    subscript(form: TextForm) -> Value? {
        get {
            switch form.slot {
            case 0: slots.0
            case 1: slots.1
            case 2: slots.2
            default: slots.3
            }
        }
        set {
            switch form.slot {
            case 0: slots.0 = newValue
            case 1: slots.1 = newValue
            case 2: slots.2 = newValue
            default: slots.3 = newValue
            }
        }
    }
}

/// What one app's association file says about one URL.
public enum MatchOutcome: String, Sendable, Hashable, Codable {
    /// A rule accepts the URL: the app opens it.
    case match
    /// A rule with `exclude: true` (or a legacy `NOT ` path) decided first: the app must not open it.
    case exclude
    /// No rule decided: the app has nothing to say about the URL.
    case noMatch = "no_match"
}

/// One query item, split at the first `=`; an item without `=` has an empty value.
struct QueryItem: Sendable {
    let name: ArraySlice<UInt8>
    let value: ArraySlice<UInt8>
}
