/// Why a redirect URI is not allowed. A refused URI is never opened: the link is declined without a
/// redirect (RFC 6749 §4.1.2.1, RFC 9700 §2.1).
public struct RedirectRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which check refused the URI, with the part at fault where it is safe to quote.
    public enum Reason: Sendable, Hashable {
        case empty
        /// A space, tab, line break, DEL or other control character, at this UTF-8 offset.
        case whitespaceOrControl(offset: Int)
        /// Anything outside ASCII (fullwidth dots, homoglyphs, IDN): the allowed URIs are pure ASCII.
        case nonASCII(scalar: UInt32, offset: Int)
        /// Browsers read `\` as `/`; an exact URI never has one.
        case backslash(offset: Int)
        case malformed(URLSyntaxError)
        /// The scheme as written; it must be exactly `https`.
        case scheme(String)
        case userinfo
        /// The port as written, possibly empty (`https://host:/…`); no port is allowed, not even `:443`.
        case port(String)
        /// There is a `?`, even with nothing after it.
        case query
        /// There is a `#`, even with nothing after it.
        case fragment
        /// The host matches an allowed one only when lower-cased; hosts must be written exactly as listed.
        case hostNotLowerCase(String)
        /// The host matches an allowed one only without its trailing dot.
        case hostTrailingDot(String)
        case hostNotAllowed(String)
        /// The path has a `%` escape; allowed paths are compared encoded, and have none.
        case percentEncodedPath(String)
        case pathNotAllowed(String)
        /// Every part passed, yet the string is not byte-for-byte a listed URI.
        case notListed
    }

    /// Why the URI is refused.
    public let reason: Reason

    /// Creates a refusal for `reason`.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// A sentence for users. It quotes only parts a parsed URL can hold (ASCII, no controls), so it is safe
    /// to log; the refused URI itself is left to the caller to quote, escaped.
    public var description: String {
        switch reason {
        case .empty:
            "the redirect URI is empty"
        case .whitespaceOrControl(let offset):
            "the redirect URI contains whitespace or a control character (at byte \(offset))"
        case .nonASCII(let scalar, let offset):
            "the redirect URI contains the non-ASCII character U+\(String(scalar, radix: 16, uppercase: true).leftPadded(to: 4)) "
                + "(at byte \(offset)); allowed URIs are ASCII, so IDN and lookalike characters are refused"
        case .backslash(let offset):
            "the redirect URI contains a backslash (at byte \(offset)), which browsers read as '/'"
        case .malformed(let error):
            "the redirect URI is not an absolute URL: \(error)"
        case .scheme(let scheme):
            "the scheme is '\(scheme)'; it must be exactly 'https'"
        case .userinfo:
            "the redirect URI has userinfo (text before '@' in the authority); none is allowed"
        case .port(let port):
            port.isEmpty
                ? "the redirect URI has an empty port (':'); no port is allowed"
                : "the redirect URI has the port \(port); no port is allowed, not even 443"
        case .query:
            "the redirect URI has a query ('?'); none is allowed, not even an empty one"
        case .fragment:
            "the redirect URI has a fragment ('#'); none is allowed, not even an empty one"
        case .hostNotLowerCase(let host):
            "the host '\(host)' is not written in lower case as listed"
        case .hostTrailingDot(let host):
            "the host '\(host)' ends with a dot; it must be written exactly as listed"
        case .hostNotAllowed(let host):
            host.lowercasedASCII.contains("xn--")
                ? "the host '\(host)' is an IDN (punycode) host, not an allowed one"
                : "the host '\(host)' is not an allowed redirect host"
        case .percentEncodedPath(let path):
            "the path '\(path)' contains a percent escape; it must be written exactly as listed"
        case .pathNotAllowed(let path):
            "the path '\(path)' is not an allowed path for this host"
        case .notListed:
            "the redirect URI is not exactly one of the allowed URIs"
        }
    }
}
