/// The reply to a successful `open`.
public struct OpenResult: Sendable, Hashable, Codable {
    /// How the handoff ended when it did not fail.
    public enum Status: String, Sendable, Hashable, Codable {
        /// The claiming app's handler answered `continue: true`.
        case handled
        /// No app claims the URL and `universalLinksOnly` was false: on iOS it would open in a browser.
        case browser
    }

    /// How the handoff ended.
    public var status: Status
    /// The app that handled the URL; `nil` for `browser`.
    public var app: String?
    /// The associated domain that brought the URL to the app, `applinks:…`.
    public var domain: String?
    /// The AASA component that matched, as an RFC 6901 pointer into its AASA document, `/applinks/details/0/components/1`.
    public var rule: String?
    /// What happened to each URL the handler opened, in the order it opened them.
    public var opened: [OpenedURL]

    /// Creates the reply.
    public init(status: Status, app: String? = nil, domain: String? = nil, rule: String? = nil, opened: [OpenedURL] = []) {
        self.status = status
        self.app = app
        self.domain = domain
        self.rule = rule
        self.opened = opened
    }
}
