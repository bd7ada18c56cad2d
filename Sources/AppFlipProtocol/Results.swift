/// Who is on the other end of a Unix socket connection, from `SO_PEERCRED`.
public struct PeerInfo: Sendable, Hashable, Codable {
    public var uid: UInt32
    public var gid: UInt32
    public var pid: Int32

    public init(uid: UInt32, gid: UInt32, pid: Int32) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
    }
}

/// The reply to `hello`.
public struct HelloResult: Sendable, Hashable, Codable {
    public var version: Int
    public var server: String
    public var maxLineBytes: Int
    /// The credentials the daemon recorded for this connection.
    public var peer: PeerInfo?

    public init(version: Int, server: String, maxLineBytes: Int, peer: PeerInfo?) {
        self.version = version
        self.server = server
        self.maxLineBytes = maxLineBytes
        self.peer = peer
    }
}

/// The reply to a successful `open`.
public struct OpenResult: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        /// The claiming app's handler answered `continue: true`.
        case handled
        /// No app claims the URL and `universalLinksOnly` was false: on iOS it would open in a browser.
        case browser
    }

    public var status: Status
    public var app: String?
    /// The associated domain that brought the URL to the app, `applinks:…`.
    public var domain: String?
    /// The AASA component that matched, as an RFC 6901 pointer into its AASA document, `/applinks/details/0/components/1`.
    public var rule: String?
    /// What happened to each URL the handler opened, in the order it opened them.
    public var opened: [OpenedURL]

    public init(status: Status, app: String? = nil, domain: String? = nil, rule: String? = nil, opened: [OpenedURL] = []) {
        self.status = status
        self.app = app
        self.domain = domain
        self.rule = rule
        self.opened = opened
    }
}

/// The reply to `register`.
public struct RegisterResult: Sendable, Hashable, Codable {
    public var appID: String
    public var domains: [String]
    /// What the AASA loader warned about; the registration stands.
    public var warnings: [String]

    public init(appID: String, domains: [String], warnings: [String]) {
        self.appID = appID
        self.domains = domains
        self.warnings = warnings
    }
}

/// The reply to `answer`: the daemon took it; the originator's reply follows the opened URLs' delivery.
public struct AnswerResult: Sendable, Hashable, Codable {
    public var handoff: UInt64

    public init(handoff: UInt64) {
        self.handoff = handoff
    }
}

/// One app's decision about a URL, as `explain` reports it.
public struct CandidateDecision: Sendable, Hashable, Codable {
    public var app: String
    public var domain: String
    /// `match`, `exclude` or `no_match`.
    public var outcome: String
    public var rule: String
    public var details: Int?
    public var component: Int?

    public init(app: String, domain: String, outcome: String, rule: String, details: Int?, component: Int?) {
        self.app = app
        self.domain = domain
        self.outcome = outcome
        self.rule = rule
        self.details = details
        self.component = component
    }
}

/// The reply to `explain`.
public struct ExplainResult: Sendable, Hashable, Codable {
    public enum Decision: String, Sendable, Hashable, Codable {
        /// `app` would receive the URL.
        case match
        /// `app` claims the host but its AASA excludes the URL.
        case exclude
        /// No app claims it.
        case noApp = "no_app"
    }

    public var url: String
    public var decision: Decision
    public var app: String?
    public var rule: String?
    /// Every app whose associated domains cover the host, in precedence order, with its own decision.
    public var candidates: [CandidateDecision]

    public init(url: String, decision: Decision, app: String?, rule: String?, candidates: [CandidateDecision]) {
        self.url = url
        self.decision = decision
        self.app = app
        self.rule = rule
        self.candidates = candidates
    }
}

/// One registered app, as `apps` lists it.
public struct AppInfo: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case `static`, live
    }

    public var appID: String
    public var kind: Kind
    public var domains: [String]
    /// `exec`, `builtin:accept`, `live`, or another handler kind.
    public var handler: String
    /// For static apps, the `apps.d` file it came from.
    public var source: String?
    /// For live apps, who registered it.
    public var peer: PeerInfo?

    public init(appID: String, kind: Kind, domains: [String], handler: String, source: String? = nil, peer: PeerInfo? = nil) {
        self.appID = appID
        self.kind = kind
        self.domains = domains
        self.handler = handler
        self.source = source
        self.peer = peer
    }
}

/// The reply to `apps`.
public struct AppsResult: Sendable, Hashable, Codable {
    /// Static apps first, then live apps, each sorted by app id.
    public var apps: [AppInfo]

    public init(apps: [AppInfo]) {
        self.apps = apps
    }
}

/// The reply to `watch`; `event` pushes follow until the connection closes.
public struct WatchResult: Sendable, Hashable, Codable {
    public var subscribed: Bool

    public init(subscribed: Bool = true) {
        self.subscribed = subscribed
    }
}

/// The result half of a successful reply, one case per op.
public enum ReplyResult: Sendable, Hashable {
    case hello(HelloResult)
    case open(OpenResult)
    case register(RegisterResult)
    case answer(AnswerResult)
    case explain(ExplainResult)
    case apps(AppsResult)
    case watch(WatchResult)

    public var op: Op {
        switch self {
        case .hello: .hello
        case .open: .open
        case .register: .register
        case .answer: .answer
        case .explain: .explain
        case .apps: .apps
        case .watch: .watch
        }
    }
}

/// The final reply to one request: `{"id":…,"op":…,"ok":true,"result":{…}}` or `{…,"ok":false,"error":{…}}`.
public struct Reply: Sendable, Hashable {
    /// `nil` only when the request's own `id` could not be read.
    public var id: RequestID?
    /// `nil` only when the request's `op` could not be read.
    public var op: Op?
    public var outcome: Result<ReplyResult, ErrorBody>

    /// The error, for a reply that is one.
    public var error: ErrorBody? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    public init(id: RequestID?, result: ReplyResult) {
        self.id = id
        self.op = result.op
        self.outcome = .success(result)
    }

    public init(id: RequestID?, op: Op?, error: ErrorBody) {
        self.id = id
        self.op = op
        self.outcome = .failure(error)
    }
}
