import AppFlipCore

/// A URL a handler asks to open, with its options.
public struct OpenURLRequest: Sendable, Hashable, Codable {
    /// The URL to open, as `UIApplication.open(_:options:)` gets it.
    public var url: String
    /// How to open it.
    public var options: OpenOptions

    /// Creates the request.
    public init(url: String, options: OpenOptions = .init()) {
        self.url = url
        self.options = options
    }

    /// Decodes the request; missing `options` are the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        options = try container.decodeIfPresent(OpenOptions.self, forKey: .options) ?? .init()
    }
}

/// What happened to one URL a handler opened.
public struct OpenedURL: Sendable, Hashable, Codable {
    /// What happened to the URL.
    public enum Status: String, Sendable, Hashable, Codable {
        /// An app claimed it and answered `continue: true`.
        case delivered
        /// An app claimed it and answered `continue: false`.
        case declined
        /// No app claimed it and `universalLinksOnly` was false: iOS would open it in a browser; appflipd has
        /// none, so nothing opened it.
        case browser
        /// Android 6–11 would show the disambiguation dialog; appflipd has no user to choose, so nothing
        /// opened it.
        case chooser
        /// It could not be delivered; `error` says why.
        case failed
    }

    /// The URL with secret query values (`code`, tokens) replaced by their length: only the app that
    /// claims a URL ever sees it whole.
    public var url: String
    /// The option the handler opened it with.
    public var universalLinksOnly: Bool
    /// What happened to it.
    public var status: Status
    /// The app that claimed it.
    public var app: String?
    /// The AASA component that matched.
    public var rule: String?
    /// Why it could not be delivered, for `failed`.
    public var error: ErrorBody?
    /// Why the app declined it, for `declined`, when the app said.
    public var reason: String?

    /// Creates an entry; `url` must already be redacted.
    public init(
        url: String,
        universalLinksOnly: Bool,
        status: Status,
        app: String? = nil,
        rule: String? = nil,
        error: ErrorBody? = nil,
        reason: String? = nil
    ) {
        self.url = url
        self.universalLinksOnly = universalLinksOnly
        self.status = status
        self.app = app
        self.rule = rule
        self.error = error
        self.reason = reason
    }
}
