import AppFlipCore

/// `activity`: the daemon hands an activity to a live app, which answers with an `answer` request.
public struct ActivityPush: Sendable, Hashable, Codable {
    /// Unique per live-app connection; the `answer` names it.
    public var handoff: UInt64
    /// The registered app id the URL was routed to.
    public var app: String
    /// The AASA component that matched.
    public var rule: String
    /// The activity to continue, its URL unredacted: the claiming app may see it whole.
    public var activity: Activity

    /// Creates a push.
    public init(handoff: UInt64, app: String, rule: String, activity: Activity) {
        self.handoff = handoff
        self.app = app
        self.rule = rule
        self.activity = activity
    }
}

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

/// The reply to `answer`: the daemon took it; the originator's reply follows the opened URLs' delivery.
public struct AnswerResult: Sendable, Hashable, Codable {
    /// The `handoff` the answer was for.
    public var handoff: UInt64

    /// Creates the reply.
    public init(handoff: UInt64) {
        self.handoff = handoff
    }
}
