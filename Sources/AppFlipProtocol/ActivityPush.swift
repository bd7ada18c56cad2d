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
