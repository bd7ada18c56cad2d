import AppFlipCore

/// `explain`: the routing decision for a URL, without delivering it.
public struct ExplainRequest: Sendable, Hashable, Codable {
    public var url: String

    public init(url: String) {
        self.url = url
    }
}
