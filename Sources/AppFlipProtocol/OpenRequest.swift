import AppFlipCore

/// `open`: hand an activity to the app that claims its URL.
public struct OpenRequest: Sendable, Hashable, Codable {
    public var activity: Activity
    public var options: OpenOptions

    public init(activity: Activity, options: OpenOptions = .init()) {
        self.activity = activity
        self.options = options
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        activity = try container.decode(Activity.self, forKey: .activity)
        options = try container.decodeIfPresent(OpenOptions.self, forKey: .options) ?? .init()
    }
}
