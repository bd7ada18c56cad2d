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
