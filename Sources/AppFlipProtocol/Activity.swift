public import AppFlipCore
/// A user activity in the image of `NSUserActivity`: what a universal-link handoff carries.
public struct Activity: Sendable, Hashable, Codable {
    /// `NSUserActivityTypeBrowsingWeb` for a universal link; anything else is refused.
    public var activityType: String
    /// The link, exactly as sent.
    public var webpageURL: String?
    /// Free-form data passed to the handler untouched.
    public var userInfo: [String: JSONValue]?

    public init(activityType: String = browsingWebActivityType, webpageURL: String?, userInfo: [String: JSONValue]? = nil) {
        self.activityType = activityType
        self.webpageURL = webpageURL
        self.userInfo = userInfo
    }
}

/// The options of `UIApplication.open(_:options:)` that matter to a universal link.
public struct OpenOptions: Sendable, Hashable, Codable {
    /// When true, the URL must be delivered to an app that claims it; when false (the iOS default) a URL no
    /// app claims "opens in the browser", which appflipd reports as the delivery status `browser`.
    public var universalLinksOnly: Bool

    public init(universalLinksOnly: Bool = false) {
        self.universalLinksOnly = universalLinksOnly
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        universalLinksOnly = try container.decodeIfPresent(Bool.self, forKey: .universalLinksOnly) ?? false
    }
}

/// A URL a handler asks to open, with its options.
public struct OpenURLRequest: Sendable, Hashable, Codable {
    public var url: String
    public var options: OpenOptions

    public init(url: String, options: OpenOptions = .init()) {
        self.url = url
        self.options = options
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        options = try container.decodeIfPresent(OpenOptions.self, forKey: .options) ?? .init()
    }
}

/// What happened to one URL a handler opened.
public struct OpenedURL: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        /// An app claimed it and answered `continue: true`.
        case delivered
        /// An app claimed it and answered `continue: false`.
        case declined
        /// No app claimed it and `universalLinksOnly` was false: iOS would open it in a browser; appflipd has
        /// none, so nothing opened it.
        case browser
        /// It could not be delivered; `error` says why.
        case failed
    }

    /// The URL with secret query values (`code`, tokens) replaced by their length: only the app that
    /// claims a URL ever sees it whole.
    public var url: String
    public var universalLinksOnly: Bool
    public var status: Status
    /// The app that claimed it.
    public var app: String?
    /// The AASA component that matched.
    public var rule: String?
    public var error: ErrorBody?

    public init(url: String, universalLinksOnly: Bool, status: Status, app: String? = nil, rule: String? = nil, error: ErrorBody? = nil) {
        self.url = url
        self.universalLinksOnly = universalLinksOnly
        self.status = status
        self.app = app
        self.rule = rule
        self.error = error
    }
}
