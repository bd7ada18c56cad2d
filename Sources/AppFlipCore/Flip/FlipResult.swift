/// What a partner app sends back to the Google app (seed steps 5 and 6): the verified redirect URI with
/// either a code and the state, or one of the three errors.
public enum FlipResult: Sendable, Hashable, CustomStringConvertible {
    /// Success: `code` and `state`, the state exactly as received.
    case code(String, state: String)
    /// Failure: `error`, an optional `error_description`, and `state` whenever one was received.
    ///
    /// RFC 6749 §4.1.2.1 requires the state with an error too; the seed's own sample omits it. This type
    /// sends it whenever it is given one.
    case error(FlipErrorCode, description: String?, state: String?)

    /// The query: `code=…&state=…`, or `error=…[&error_description=…][&state=…]`.
    ///
    /// Every value is strictly percent-encoded (only `A-Z a-z 0-9 - . _ ~` stay literal), so the state comes
    /// back byte for byte from any standard decoder, whether or not it reads `+` as a space.
    public var query: String {
        switch self {
        case .code(let code, let state):
            return FormEncoding.encode([("code", code), ("state", state)])
        case .error(let error, let description, let state):
            var pairs: [(name: String, value: String)] = [("error", error.rawValue)]
            if let description { pairs.append(("error_description", description)) }
            if let state { pairs.append(("state", state)) }
            return FormEncoding.encode(pairs)
        }
    }

    /// The URL to open. An allowed redirect URI never has a query or fragment, so the result is that URI,
    /// `?`, and `query`.
    public func url(appendingTo redirectURI: AllowedRedirectURI) -> String {
        redirectURI.string + "?" + query
    }

    /// Safe to log: the code is replaced by its length.
    public var description: String {
        switch self {
        case .code(let code, _): "code (\(code.utf8.count) bytes, redacted) with state"
        case .error(let error, _, let state): "error \(error.rawValue)" + (state == nil ? " without state" : " with state")
        }
    }
}

/// The three error values App Flip lets a partner app return to Google (seed: "Parameters used when the
/// authorization result is returned unsuccessfully"). Nothing else may ever be sent.
public enum FlipErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Recoverable: Google falls back to the browser-based authorization URL.
    case cancelled
    /// Google aborts account linking.
    case unrecoverable
    /// The request parameters are invalid or missing.
    case invalidRequest = "invalid_request"
}
