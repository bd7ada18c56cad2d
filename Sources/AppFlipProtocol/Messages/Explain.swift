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

/// The reply to `explain`.
public struct ExplainResult: Sendable, Hashable, Codable {
    /// What routing decided.
    public enum Decision: String, Sendable, Hashable, Codable {
        /// `app` would receive the URL.
        case match
        /// `app` claims the host but its AASA excludes the URL.
        case exclude
        /// No app claims it.
        case noApp = "no_app"
    }

    /// The URL that was explained.
    public var url: String
    /// What `open` would do with the URL.
    public var decision: Decision
    /// The app that would receive it, or that excludes it.
    public var app: String?
    /// The deciding AASA rule, as an RFC 6901 pointer into the app's document.
    public var rule: String?
    /// Every app whose associated domains cover the host, in precedence order, with its own decision.
    public var candidates: [CandidateDecision]
    /// The same URL routed as Android does, beside the iOS decision above; `nil` from a daemon that
    /// predates Android routing.
    public var android: AndroidDecision?

    /// Creates the reply.
    public init(url: String, decision: Decision, app: String?, rule: String?, candidates: [CandidateDecision], android: AndroidDecision? = nil) {
        self.url = url
        self.decision = decision
        self.app = app
        self.rule = rule
        self.candidates = candidates
        self.android = android
    }
}

/// How Android would resolve a URL, as `explain` reports it: on the device the daemon plays
/// (`android.verifier`, `android.generation`), and on every other device where the outcome differs.
public struct AndroidDecision: Sendable, Hashable, Codable {
    /// What Android does with the URL.
    public enum Decision: String, Sendable, Hashable, Codable {
        /// The app in `apps` opens it.
        case match
        /// Android 6–11's disambiguation dialog: `apps` (none verified for all its hosts) and the browsers.
        case chooser
        /// It opens in the browser, for `reason`.
        case browser
    }

    /// The verifier whose verdicts decided: `google` or `statementService`.
    public var verifier: String
    /// The Android release: 11 (6 to 11), 12 (12 to 14) or 15 (15 and later).
    public var generation: Int
    public var decision: Decision
    /// The app that opens it; for `chooser`, the apps offered beside the browsers.
    public var apps: [String]
    /// The deciding intent filter, `/android/intentFilters/N` in the app's `android` object.
    public var rule: String?
    /// The filter host that matched.
    public var host: String?
    /// Why it opens in the browser or shows the dialog; for `match`, why this app when others are verified
    /// too.
    public var reason: String?
    /// The other verifier and generation pairs whose decision differs from this one, each with its own.
    public var otherwise: [AndroidDecision]?

    /// Creates a decision.
    public init(
        verifier: String,
        generation: Int,
        decision: Decision,
        apps: [String],
        rule: String? = nil,
        host: String? = nil,
        reason: String? = nil,
        otherwise: [AndroidDecision]? = nil
    ) {
        self.verifier = verifier
        self.generation = generation
        self.decision = decision
        self.apps = apps
        self.rule = rule
        self.host = host
        self.reason = reason
        self.otherwise = otherwise
    }
}

/// One app's decision about a URL, as `explain` reports it.
public struct CandidateDecision: Sendable, Hashable, Codable {
    /// The candidate's app id.
    public var app: String
    /// The `applinks:` entry through which the app claims the host.
    public var domain: String
    /// `match`, `exclude` or `no_match`.
    public var outcome: String
    /// The deciding AASA component, as an RFC 6901 pointer into the app's document; empty when nothing decided.
    public var rule: String
    /// The index of the deciding `details` entry, when one decided.
    public var details: Int?
    /// The index of the deciding component in that entry, when one decided.
    public var component: Int?

    /// Creates a decision.
    public init(app: String, domain: String, outcome: String, rule: String, details: Int?, component: Int?) {
        self.app = app
        self.domain = domain
        self.outcome = outcome
        self.rule = rule
        self.details = details
        self.component = component
    }
}
