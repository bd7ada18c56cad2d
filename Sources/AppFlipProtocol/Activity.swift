public import AppFlipCore

/// A user activity in the image of `NSUserActivity`: what a universal-link handoff carries.
public struct Activity: Sendable, Hashable, Codable {
    /// `NSUserActivityTypeBrowsingWeb` for a universal link; anything else is refused.
    public var activityType: String
    /// The link, exactly as sent.
    public var webpageURL: String?
    /// Free-form data passed to the handler untouched.
    public var userInfo: [String: JSONValue]?

    /// Creates a browsing-web activity for `webpageURL`, as a universal-link tap does.
    public init(activityType: String = browsingWebActivityType, webpageURL: String?, userInfo: [String: JSONValue]? = nil) {
        self.activityType = activityType
        self.webpageURL = webpageURL
        self.userInfo = userInfo
    }
}
