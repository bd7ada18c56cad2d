import AppFlipCore

/// The options of `UIApplication.open(_:options:)` that matter to a universal link.
public struct OpenOptions: Sendable, Hashable, Codable {
    /// When true, the URL must be delivered to an app that claims it; when false (the iOS default) a URL no
    /// app claims "opens in the browser", which appflipd reports as the delivery status `browser`.
    public var universalLinksOnly: Bool

    /// Creates options; the default is iOS's.
    public init(universalLinksOnly: Bool = false) {
        self.universalLinksOnly = universalLinksOnly
    }

    /// Decodes the options; a missing `universalLinksOnly` is false, as on iOS.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        universalLinksOnly = try container.decodeIfPresent(Bool.self, forKey: .universalLinksOnly) ?? false
    }
}
