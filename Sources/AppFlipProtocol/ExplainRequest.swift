import AppFlipCore

/// `explain`: the routing decision for a URL, without delivering it.
public struct ExplainRequest: Sendable, Hashable, Codable {
    /// The URL to route, as it would be sent in `open`.
    public var url: String

    /// Creates the request.
    public init(url: String) {
        self.url = url
    }
}
