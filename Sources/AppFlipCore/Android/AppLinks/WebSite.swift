/// A web asset: scheme, host and port, the identity a `web` target's `site` names and the source whose
/// `/.well-known/assetlinks.json` is fetched.
///
/// The two verifiers read `site` differently. Google's (digitalassetlinks `well-known/details.md`,
/// comptest2201–2216) allows only `http`/`https` (any case), no user info, query, fragment or path, not even a
/// lone `/` (comptest2212). AOSP's `retriever/WebAsset.java` lets `java.net.URL` parse it and refuses only a
/// non-http(s) scheme, user info and a path or query other than `""` or `/`; a fragment is ignored.
public struct WebSite: Sendable, Hashable, CustomStringConvertible {
    /// Lower-cased.
    public let scheme: String
    /// Lower-cased, as both verifiers compare it.
    public let host: String
    /// The explicit port, or the scheme's default: `https://a.example` and `https://a.example:443` are one site.
    public let port: Int

    public init(scheme: String, host: String, port: Int? = nil) {
        self.scheme = scheme.lowercasedASCII
        self.host = host.lowercasedASCII
        self.port = port ?? (self.scheme == "http" ? 80 : 443)
    }

    /// Why a `site` is refused.
    public enum Problem: Error, Sendable, Hashable {
        case notURL
        case notHTTP
        case userInfo
        case path
        case queryOrFragment
        case invalidPort
    }

    /// `site` read as Google's verifier reads it.
    public static func parse(_ site: String) throws(Problem) -> WebSite {
        let url = try components(site)
        guard url.path.isEmpty else { throw .path }
        guard url.query == nil, url.fragment == nil else { throw .queryOrFragment }
        return try Self.site(of: url)
    }

    /// `site` read as AOSP StatementService reads it.
    public static func parseAsStatementService(_ site: String) throws(Problem) -> WebSite {
        let url = try components(site)
        guard (url.path.isEmpty || url.path == "/") && url.query == nil else { throw .path }
        return try self.site(of: url)
    }

    /// The statement list's address for this site.
    public var statementListURL: String {
        let defaultPort = scheme == "http" ? 80 : 443
        return "\(scheme)://\(host)\(port == defaultPort ? "" : ":\(port)")/.well-known/assetlinks.json"
    }

    public var description: String {
        let defaultPort = scheme == "http" ? 80 : 443
        return "\(scheme)://\(host)\(port == defaultPort ? "" : ":\(port)")"
    }

    private static func components(_ site: String) throws(Problem) -> RawURL {
        guard !site.isEmpty, let url = try? RawURL(site) else { throw .notURL }
        guard ["http", "https"].contains(url.normalizedScheme) else { throw .notHTTP }
        guard url.userinfo == nil else { throw .userInfo }
        return url
    }

    private static func site(of url: RawURL) throws(Problem) -> WebSite {
        var port: Int?
        if let written = url.port {
            guard let value = Int(written), (1...65535).contains(value) else { throw .invalidPort }
            port = value
        }
        return WebSite(scheme: url.normalizedScheme, host: url.normalizedHost, port: port)
    }
}
