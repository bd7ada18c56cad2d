/// The redirect URIs a partner app may open, compared exactly (RFC 6749 §3.1.2.3 simple string comparison,
/// RFC 9700 §2.1 exact matching): the raw string must equal a listed URI byte for byte, and the parsed parts
/// must pass each structural check, so that every refusal can say which part is wrong.
public struct RedirectAllowlist: Sendable {
    /// The 12 App Flip redirect URIs of the seed.
    public static let appFlip = RedirectAllowlist(
        checked: AppFlipRedirectURI.all.map {
            (AllowedRedirectURI(string: $0.string, appFlip: $0), host: $0.host, path: $0.path)
        }
    )

    /// Every allowed URI, in the order given.
    public var uris: [String] { ordered.map(\.string) }

    private let ordered: [AllowedRedirectURI]
    private let byBytes: [[UInt8]: AllowedRedirectURI]
    /// Allowed paths by host, for diagnostics only: acceptance always requires the byte-exact match.
    private let pathsByHost: [[UInt8]: Set<[UInt8]>]

    /// An allowlist configured by a user, e.g. a subset of the 12 or a staging redirect of their own.
    ///
    /// Each entry must itself be exact: `https`, a lower-case host without a trailing dot, no userinfo, port,
    /// query or fragment, and a path without `%` escapes or dot segments. The list may not be empty or
    /// repeat an entry. An entry that is one of the 12 is recognised as such.
    public init(_ uris: some Sequence<String>) throws(RedirectAllowlistError) {
        var entries: [Entry] = []
        var seen: [[UInt8]: Int] = [:]
        for (index, uri) in uris.enumerated() {
            if let first = seen[Array(uri.utf8)] {
                throw RedirectAllowlistError(index: index, uri: uri, reason: .duplicate(ofIndex: first))
            }
            let url = try Self.configurationCheck(uri, index: index)
            seen[Array(uri.utf8)] = index
            let appFlip = AppFlipRedirectURI.all.first { $0.string.isIdentical(to: uri) }
            entries.append((AllowedRedirectURI(string: uri, appFlip: appFlip), host: url.host, path: url.path))
        }
        guard !entries.isEmpty else { throw RedirectAllowlistError(index: nil, uri: nil, reason: .empty) }
        self.init(checked: entries)
    }

    /// A configured entry must be exactly what a candidate has to equal: nothing a client could rewrite.
    private static func configurationCheck(_ uri: String, index: Int) throws(RedirectAllowlistError) -> RawURL {
        func failure(_ reason: RedirectAllowlistError.Reason) -> RedirectAllowlistError {
            RedirectAllowlistError(index: index, uri: uri, reason: reason)
        }
        let url: RawURL
        switch structuralCheck(uri) {
        case .failure(let refusal): throw failure(.refused(refusal))
        case .success(let parsed): url = parsed
        }
        if !url.host.isIdentical(to: url.host.lowercasedASCII) { throw failure(.refused(RedirectRefusal(.hostNotLowerCase(url.host)))) }
        if url.host.hasSuffix(".") { throw failure(.refused(RedirectRefusal(.hostTrailingDot(url.host)))) }
        if url.path.utf8.contains(UInt8(ascii: "%")) { throw failure(.refused(RedirectRefusal(.percentEncodedPath(url.path)))) }
        let segments = url.path.split(separator: "/", omittingEmptySubsequences: false)
        if !url.path.hasPrefix("/") || segments.contains(where: { $0 == "." || $0 == ".." }) {
            throw failure(.pathNotCanonical(url.path))
        }
        return url
    }

    /// An allowlist of some of the 12 App Flip URIs, e.g. only the production Assistant ones.
    public init(appFlip uris: some Sequence<AppFlipRedirectURI>) throws(RedirectAllowlistError) {
        try self.init(uris.map(\.string))
    }

    /// A checked entry and its parsed host and path.
    private typealias Entry = (allowed: AllowedRedirectURI, host: String, path: String)

    private init(checked entries: [Entry]) {
        ordered = entries.map(\.allowed)
        byBytes = Dictionary(uniqueKeysWithValues: entries.map { (Array($0.allowed.string.utf8), $0.allowed) })
        var paths: [[UInt8]: Set<[UInt8]>] = [:]
        for entry in entries {
            paths[Array(entry.host.utf8), default: []].insert(Array(entry.path.utf8))
        }
        pathsByHost = paths
    }

    /// Allows `candidate` only when it is byte-for-byte one of the listed URIs and every parsed part passes;
    /// otherwise says why it is refused.
    public func check(_ candidate: String) -> Result<AllowedRedirectURI, RedirectRefusal> {
        let url: RawURL
        switch Self.structuralCheck(candidate) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let parsed): url = parsed
        }
        let host = Array(url.host.utf8)
        guard let paths = pathsByHost[host] else {
            let lowered = url.host.lowercasedASCII
            if pathsByHost[Array(lowered.utf8)] != nil { return .failure(RedirectRefusal(.hostNotLowerCase(url.host))) }
            var trimmed = Substring(lowered)
            while trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
            if trimmed.count < lowered.count, pathsByHost[Array(trimmed.utf8)] != nil {
                return .failure(RedirectRefusal(.hostTrailingDot(url.host)))
            }
            return .failure(RedirectRefusal(.hostNotAllowed(url.host)))
        }
        guard paths.contains(Array(url.path.utf8)) else {
            if url.path.utf8.contains(UInt8(ascii: "%")) { return .failure(RedirectRefusal(.percentEncodedPath(url.path))) }
            return .failure(RedirectRefusal(.pathNotAllowed(url.path)))
        }
        guard let allowed = byBytes[Array(candidate.utf8)] else {
            // The part checks cannot tell; acceptance never rests on them alone.
            return .failure(RedirectRefusal(.notListed))
        }
        return .success(allowed)
    }

    /// The checks that need no allowlist: characters, syntax, scheme, and no userinfo, port, query or fragment.
    private static func structuralCheck(_ candidate: String) -> Result<RawURL, RedirectRefusal> {
        guard !candidate.isEmpty else { return .failure(RedirectRefusal(.empty)) }
        var offset = 0
        for scalar in candidate.unicodeScalars {
            if scalar.value > 0x7F {
                return .failure(RedirectRefusal(.nonASCII(scalar: scalar.value, offset: offset)))
            }
            if scalar.value <= 0x20 || scalar.value == 0x7F {
                return .failure(RedirectRefusal(.whitespaceOrControl(offset: offset)))
            }
            if scalar == "\\" { return .failure(RedirectRefusal(.backslash(offset: offset))) }
            offset += 1  // ASCII: one byte each
        }
        let url: RawURL
        do {
            url = try RawURL(candidate)
        } catch {
            return .failure(RedirectRefusal(.malformed(error)))
        }
        guard url.scheme.isIdentical(to: "https") else { return .failure(RedirectRefusal(.scheme(url.scheme))) }
        guard url.userinfo == nil else { return .failure(RedirectRefusal(.userinfo)) }
        if let port = url.port { return .failure(RedirectRefusal(.port(port))) }
        guard url.query == nil else { return .failure(RedirectRefusal(.query)) }
        guard url.fragment == nil else { return .failure(RedirectRefusal(.fragment)) }
        return .success(url)
    }
}
