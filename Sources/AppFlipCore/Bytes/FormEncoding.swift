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
