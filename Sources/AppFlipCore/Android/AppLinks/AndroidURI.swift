/// A URL as `android.net.Uri` hands it to intent resolution: the scheme and host as written (Uri lower-cases
/// neither), the port or nil, and the path, query and fragment percent-decoded (`getPath()`,
/// `getQuery()`, `getFragment()`), which is what PatternMatcher sees.
public struct AndroidURI: Sendable, Hashable {
    public let scheme: String
    public let host: String
    public let port: Int?
    public let path: String
    public let query: String?
    public let fragment: String?

    /// Nil when `url` is not an absolute URL with an authority, or its port is not a number.
    public init?(_ url: String) {
        guard let raw = try? RawURL(url) else { return nil }
        var port: Int?
        if let written = raw.port, !written.isEmpty {
            guard let value = Int(written) else { return nil }
            port = value
        }
        self.init(
            scheme: raw.scheme,
            host: raw.host,
            port: port,
            path: Self.decode(raw.path),
            query: raw.query.map(Self.decode),
            fragment: raw.fragment.map(Self.decode)
        )
    }

    public init(scheme: String, host: String, port: Int? = nil, path: String, query: String? = nil, fragment: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// `Uri.decode`: an escape that is not two hex digits is kept as written.
    private static func decode(_ text: String) -> String {
        PercentEncoding.decode(Array(text.utf8), plusIsSpace: false).map { String(decoding: $0, as: UTF8.self) } ?? text
    }
}
