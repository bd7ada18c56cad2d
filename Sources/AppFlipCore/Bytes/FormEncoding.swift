/// `application/x-www-form-urlencoded` text, a query or a form body: split into its fields, and written.
///
/// Decoding a field is `PercentEncoding`'s: form data reads `+` as a space, a URL compared as a URL does not.
package enum FormEncoding {
    /// Every `name=value` field of `text`, in order, as written: split at `&`, then at the first `=` (a
    /// field without one has an empty value). Empty fields (`a=1&&b=2`) are skipped, as browsers do.
    /// Splitting comes before decoding, so an escaped `%26` or `%3D` stays inside its field.
    package static func fields<Text: Collection<UInt8>>(of text: Text) -> [(name: Text.SubSequence, value: Text.SubSequence)] {
        text.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { field in
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else { return (field, field[field.endIndex...]) }
            return (field[..<equals], field[field.index(after: equals)...])
        }
    }

    /// `name=value` pairs joined with `&`, names and values strictly percent-encoded, so that the text is
    /// valid both as a query and as a form body.
    package static func encode(_ pairs: some Sequence<(name: String, value: String)>) -> String {
        pairs.map { "\(PercentEncoding.encodeStrictly($0.name))=\(PercentEncoding.encodeStrictly($0.value))" }
            .joined(separator: "&")
    }
}

/// The parameters of an `application/x-www-form-urlencoded` string: a query or a form body.
///
/// OAuth 2.0 says a parameter "MUST NOT be included more than once" (RFC 6749 §3.1, §3.2), so this keeps
/// every occurrence and lets the endpoint refuse repeats. Decoding is strict: a malformed `%` escape or
/// bytes that are not UTF-8 make the whole string invalid, instead of being passed through raw the way
/// lenient parsers do (a raw `%zz` in a redirect_uri must never compare equal to anything).
package struct FormParameters: Sendable {
    package struct Malformed: Error, Sendable, Hashable, CustomStringConvertible {
        package var description: String
    }

    /// Every name-value pair, decoded, in order.
    package private(set) var pairs: [(name: String, value: String)]

    package init(_ pairs: [(name: String, value: String)] = []) {
        self.pairs = pairs
    }

    /// Parses `a=1&b=2`. An empty string has no parameters; `a` alone is `a` with an empty value.
    package init(parsing encoded: some StringProtocol) throws(Malformed) {
        var pairs: [(name: String, value: String)] = []
        for (name, value) in FormEncoding.fields(of: encoded.utf8) {
            pairs.append((try Self.decode(name), try Self.decode(value)))
        }
        self.pairs = pairs
    }

    /// The only value of `name`, nil when absent; `.repeated` when it occurs more than once.
    package func single(_ name: String) -> Lookup {
        var found: String?
        for pair in pairs where pair.name == name {
            if found != nil { return .repeated }
            found = pair.value
        }
        return found.map(Lookup.value) ?? .absent
    }

    /// The value of `name` if it occurs exactly once.
    package subscript(name: String) -> String? {
        if case .value(let value) = single(name) { return value }
        return nil
    }

    /// Names that occur more than once, in first-seen order.
    package var repeatedNames: [String] {
        var seen: Set<String> = []
        var repeated: [String] = []
        for pair in pairs where !seen.insert(pair.name).inserted && !repeated.contains(pair.name) {
            repeated.append(pair.name)
        }
        return repeated
    }

    package mutating func append(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    /// The encoded form, valid both as a query and as a form body.
    package var encoded: String {
        FormEncoding.encode(pairs)
    }

    package enum Lookup: Sendable, Hashable {
        case absent
        case value(String)
        case repeated
    }

    /// Undoes form encoding: `+` is a space, `%XX` a byte; the result must be UTF-8.
    package static func decode(_ bytes: some Collection<UInt8>) throws(Malformed) -> String {
        guard let decoded = PercentEncoding.decode(bytes, plusIsSpace: true) else {
            throw Malformed(description: "a '%' is not followed by two hex digits")
        }
        guard let string = String(validating: decoded, as: UTF8.self) else {
            throw Malformed(description: "a value is not valid UTF-8 once decoded")
        }
        return string
    }
}
