/// The reply to `watch`; `event` pushes follow until the connection closes.
public struct WatchResult: Sendable, Hashable, Codable {
    /// Always true: the connection now receives `event` pushes.
    public var subscribed: Bool

    /// Creates the reply.
    public init(subscribed: Bool = true) {
        self.subscribed = subscribed
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
    /// The app the URL was routed to; `nil` when none claims it.
    public var app: String?
    /// The AASA component that matched, as an RFC 6901 pointer.
    public var rule: String?
    /// `handled`, `delivered`, `browser`, or the error code.
    public var outcome: String
    /// Microseconds from the hop's start to its outcome, on the daemon's monotonic clock.
    public var latencyMicros: Int64
    /// For a `start`: the intent and its result, secrets redacted; `url` is then the intent's
    /// `intent:#Intent;…;end` form.
    public var intent: IntentEvent?

    /// Creates an event.
    public init(
        time: Double,
        from: PeerInfo?,
        client: String?,
        hop: Int,
        url: String,
        app: String?,
        rule: String?,
        outcome: String,
        latencyMicros: Int64,
        intent: IntentEvent? = nil
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
        self.intent = intent
    }
}
