/// One `name=value` pair of a query string, split as `FormEncoding` splits it, then form-decoded.
struct QueryField: Sendable, Hashable {
    /// The decoded name; `nil` when it is not valid UTF-8 after decoding.
    let name: String?
    /// The decoded value (empty when there is no `=`); `nil` when it is not valid UTF-8 after decoding.
    let value: String?
    /// The value exactly as written, for diagnostics such as a literal `+`.
    let rawValue: Substring

    /// Every field of `query`, in order. Empty segments (`a=1&&b=2`) are skipped, as browsers do.
    static func fields(of query: String) -> [QueryField] {
        FormEncoding.fields(of: query.utf8).map { name, value in
            QueryField(
                name: PercentEncoding.formDecode(Substring(name)),
                value: PercentEncoding.formDecode(Substring(value)),
                rawValue: Substring(value)
            )
        }
    }
}
