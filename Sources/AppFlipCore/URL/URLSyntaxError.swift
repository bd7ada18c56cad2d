/// Why a string is not a usable absolute URL, and the UTF-8 offset where that shows.
public struct URLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is malformed.
    public enum Reason: Sendable, Hashable {
        case empty
        case missingScheme
        case invalidScheme
        case missingAuthority
        case emptyHost
        case invalidHost
        case invalidPort
        case invalidPercentEscape
        case invalidCharacter(String)
    }

    /// What is malformed.
    public let reason: Reason
    /// The UTF-8 offset in the input where the problem starts.
    public let offset: Int

    /// Creates an error at UTF-8 `offset` of the URL.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The reason and the offset; the URL is not quoted.
    public var description: String {
        let what: String
        switch reason {
        case .empty: what = "the URL is empty"
        case .missingScheme: what = "there is no scheme"
        case .invalidScheme: what = "the scheme is not a letter followed by letters, digits, '+', '-' or '.'"
        case .missingAuthority: what = "the scheme is not followed by '//' and an authority"
        case .emptyHost: what = "the host is empty"
        case .invalidHost: what = "the host is malformed"
        case .invalidPort: what = "the port is not a number"
        case .invalidPercentEscape: what = "'%' is not followed by two hexadecimal digits"
        case .invalidCharacter(let character): what = "\(character) is not allowed in a URL"
        }
        return "\(what) (at byte \(offset))"
    }
}
