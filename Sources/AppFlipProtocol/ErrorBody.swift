/// The error half of a reply: a code for programs, a sentence for people, and context where it helps.
public struct ErrorBody: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// The request field at fault, as a dotted path (`activity.webpageURL`).
    public var field: String?
    /// The app the URL was routed to, for handoff errors.
    public var app: String?
    /// The AASA component that decided, as an RFC 6901 pointer into its AASA document, `/applinks/details/0/components/1`, for `excluded` and handler errors.
    public var rule: String?
    /// What happened to each URL the handler opened before it declined or failed.
    public var opened: [OpenedURL]?

    public init(
        _ code: ErrorCode, _ message: String, field: String? = nil, app: String? = nil, rule: String? = nil,
        opened: [OpenedURL]? = nil
    ) {
        self.code = code
        self.message = message
        self.field = field
        self.app = app
        self.rule = rule
        self.opened = opened
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
