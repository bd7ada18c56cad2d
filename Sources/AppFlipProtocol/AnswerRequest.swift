import AppFlipCore

/// `answer`: a live app's reply to an `activity` push.
public struct AnswerRequest: Sendable, Hashable, Codable {
    /// The `handoff` of the `activity` push being answered.
    public var handoff: UInt64
    /// `application(_:continue:restorationHandler:)`'s return value.
    public var `continue`: Bool
    /// URLs the app opens while handling the activity, delivered in order before the originator is answered.
    public var open: [OpenURLRequest]
    /// Why the app declines (`continue: false`), carried to the opener on the `declined` outcome.
    public var reason: String?

    /// Creates an answer; an app that opens nothing only passes `handoff` and `continue`.
    public init(handoff: UInt64, continue: Bool, open: [OpenURLRequest] = [], reason: String? = nil) {
        self.handoff = handoff
        self.continue = `continue`
        self.open = open
        self.reason = reason
    }

    /// Decodes the request; a missing `open` is an empty list.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        handoff = try container.decode(UInt64.self, forKey: .handoff)
        `continue` = try container.decode(Bool.self, forKey: .continue)
        self.open = try container.decodeIfPresent([OpenURLRequest].self, forKey: .open) ?? []
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
    }
}
