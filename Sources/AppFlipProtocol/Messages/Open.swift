import AppFlipCore

/// `open`: hand an activity to the app that claims its URL.
public struct OpenRequest: Sendable, Hashable, Codable {
    /// The activity to hand off; its `webpageURL` is routed.
    public var activity: Activity
    /// How to open it; `universalLinksOnly` decides what happens when no app claims the URL.
    public var options: OpenOptions

    /// Creates the request.
    public init(activity: Activity, options: OpenOptions = .init()) {
        self.activity = activity
        self.options = options
    }

    /// Decodes the request; missing `options` are the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        activity = try container.decode(Activity.self, forKey: .activity)
        options = try container.decodeIfPresent(OpenOptions.self, forKey: .options) ?? .init()
    }
}

/// The options of `UIApplication.open(_:options:)` that matter to a universal link.
public struct OpenOptions: Sendable, Hashable, Codable {
    /// When true, the URL must be delivered to an app that claims it; when false (the iOS default) a URL no
    /// app claims "opens in the browser", which appflipd reports as the delivery status `browser`.
    public var universalLinksOnly: Bool
    /// Which operating system's dispatcher the handoff emulates; `nil`: the daemon's `platform` setting.
    public var platform: Platform?

    /// Creates options; the default is iOS's, on the daemon's platform.
    public init(universalLinksOnly: Bool = false, platform: Platform? = nil) {
        self.universalLinksOnly = universalLinksOnly
        self.platform = platform
    }

    /// Decodes the options; a missing `universalLinksOnly` is false, as on iOS.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        universalLinksOnly = try container.decodeIfPresent(Bool.self, forKey: .universalLinksOnly) ?? false
        platform = try container.decodeIfPresent(Platform.self, forKey: .platform)
    }
}

/// The link dispatcher a handoff emulates: iOS's universal links (the AASA routes) or Android's App Links
/// (intent filters and verified hosts).
public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
    case ios
    case android
}

/// The reply to a successful `open`.
public struct OpenResult: Sendable, Hashable, Codable {
    /// How the handoff ended when it did not fail.
    public enum Status: String, Sendable, Hashable, Codable {
        /// The claiming app's handler answered `continue: true`.
        case handled
        /// No app claims the URL and `universalLinksOnly` was false: on iOS it would open in a browser.
        case browser
        /// Android 6–11 would show the disambiguation dialog (`apps` and the browsers) for a user to choose
        /// from; appflipd has no user, so nothing opened it.
        case chooser
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
    /// Why a link routed as Android does opens in the browser (no filter, an unverified host and why, a
    /// dynamic rule) or in the disambiguation dialog. `nil` on iOS, where only "no app claims it" leads there.
    public var reason: String?
    /// For `chooser`: the apps the disambiguation dialog offers beside the browsers.
    public var apps: [String]?

    /// Creates the reply.
    public init(
        status: Status,
        app: String? = nil,
        domain: String? = nil,
        rule: String? = nil,
        opened: [OpenedURL] = [],
        reason: String? = nil,
        apps: [String]? = nil
    ) {
        self.status = status
        self.app = app
        self.domain = domain
        self.rule = rule
        self.opened = opened
        self.reason = reason
        self.apps = apps
    }
}
