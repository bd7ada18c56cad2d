/// `activity`: the daemon hands an activity to a live app, which answers with an `answer` request.
public struct ActivityPush: Sendable, Hashable, Codable {
    /// Unique per live-app connection; the `answer` names it.
    public var handoff: UInt64
    /// The registered app id the URL was routed to.
    public var app: String
    /// The AASA component that matched.
    public var rule: String
    public var activity: Activity

    public init(handoff: UInt64, app: String, rule: String, activity: Activity) {
        self.handoff = handoff
        self.app = app
        self.rule = rule
        self.activity = activity
    }
}

/// `event`: one finished handoff, streamed to `watch` subscribers.
public struct HandoffEvent: Sendable, Hashable, Codable {
    /// Seconds since the Unix epoch when the handoff finished.
    public var time: Double
    /// Who sent the URL: the `open` caller for hop 0, the opening app's peer after that.
    public var from: PeerInfo?
    /// The `hello` client name of the sender, when it gave one.
    public var client: String?
    /// 0 for an `open` request, 1 for a URL its handler opened, and so on.
    public var hop: Int
    /// The URL with secret query values redacted.
    public var url: String
    public var app: String?
    public var rule: String?
    /// `handled`, `delivered`, `browser`, or the error code.
    public var outcome: String
    public var latencyMicros: Int64

    public init(
        time: Double, from: PeerInfo?, client: String?, hop: Int, url: String, app: String?, rule: String?,
        outcome: String, latencyMicros: Int64
    ) {
        self.time = time
        self.from = from
        self.client = client
        self.hop = hop
        self.url = url
        self.app = app
        self.rule = rule
        self.outcome = outcome
        self.latencyMicros = latencyMicros
    }
}

/// Anything the daemon writes: a reply, or a push that answers no request.
public enum ServerMessage: Sendable, Hashable {
    case reply(Reply)
    case activity(ActivityPush)
    case event(HandoffEvent)
}
