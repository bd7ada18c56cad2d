/// The error half of a reply: a code for programs, a sentence for people, and context where it helps.
public struct ErrorBody: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// What went wrong, for programs; stable across releases.
    public var code: ErrorCode
    /// What went wrong, for people; it may change wording at any time.
    public var message: String
    /// The request field at fault, as a dotted path (`activity.webpageURL`).
    public var field: String?
    /// The app the URL was routed to, for handoff errors.
    public var app: String?
    /// The AASA component that decided, as an RFC 6901 pointer into its AASA document, `/applinks/details/0/components/1`, for `excluded` and handler errors.
    public var rule: String?
    /// What happened to each URL the handler opened before it declined or failed.
    public var opened: [OpenedURL]?
    /// For `declined`: why the app declined, in its own words (a live app's `answer.reason`, an `exec`
    /// handler's last stderr line, the built-in partner handler's rule).
    public var reason: String?

    /// Creates an error; give the context fields that help the caller find the fault.
    public init(
        _ code: ErrorCode,
        _ message: String,
        field: String? = nil,
        app: String? = nil,
        rule: String? = nil,
        opened: [OpenedURL]? = nil,
        reason: String? = nil
    ) {
        self.code = code
        self.message = message
        self.field = field
        self.app = app
        self.rule = rule
        self.opened = opened
        self.reason = reason
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
