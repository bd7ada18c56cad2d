public import AppFlipCore
/// `hello`: the first request on every connection.
public struct HelloRequest: Sendable, Hashable, Codable {
    public var version: Int
    /// A free-form name of the client program, for logs and `watch`.
    public var client: String?

    public init(version: Int = ProtocolVersion.current, client: String? = nil) {
        self.version = version
        self.client = client
    }
}

/// `open`: hand an activity to the app that claims its URL.
public struct OpenRequest: Sendable, Hashable, Codable {
    public var activity: Activity
    public var options: OpenOptions

    public init(activity: Activity, options: OpenOptions = .init()) {
        self.activity = activity
        self.options = options
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        activity = try container.decode(Activity.self, forKey: .activity)
        options = try container.decodeIfPresent(OpenOptions.self, forKey: .options) ?? .init()
    }
}

/// `register`: the connection becomes a live app until it closes.
public struct RegisterRequest: Sendable, Hashable, Codable {
    /// `TEAMID.bundle.id`, as in an AASA `appIDs` entry.
    public var appID: String
    /// `applinks:host` or `applinks:*.host` entries.
    public var domains: [String]
    /// A whole apple-app-site-association document. Give this or `components`.
    public var association: JSONValue?
    /// The app's `components` only; the daemon wraps them in a document with one `details` entry for `appID`.
    public var components: [JSONValue]?

    public init(appID: String, domains: [String], association: JSONValue? = nil, components: [JSONValue]? = nil) {
        self.appID = appID
        self.domains = domains
        self.association = association
        self.components = components
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

    public init(handoff: UInt64, continue: Bool, open: [OpenURLRequest] = []) {
        self.handoff = handoff
        self.continue = `continue`
        self.open = open
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        handoff = try container.decode(UInt64.self, forKey: .handoff)
        `continue` = try container.decode(Bool.self, forKey: .continue)
        open = try container.decodeIfPresent([OpenURLRequest].self, forKey: .open) ?? []
    }
}

/// `explain`: the routing decision for a URL, without delivering it.
public struct ExplainRequest: Sendable, Hashable, Codable {
    public var url: String

    public init(url: String) {
        self.url = url
    }
}

/// One request of protocol v1.
public enum RequestBody: Sendable, Hashable {
    case hello(HelloRequest)
    case open(OpenRequest)
    case register(RegisterRequest)
    case answer(AnswerRequest)
    case explain(ExplainRequest)
    /// `apps`: the registry.
    case apps
    /// `watch`: stream an `event` push for every handoff from now on.
    case watch

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

/// The operation names of protocol v1.
public enum Op: String, Sendable, Hashable, Codable, CaseIterable {
    case hello, open, register, answer, explain, apps, watch
}

/// A request line: `{"id": …, "op": …, …fields}`.
public struct Request: Sendable, Hashable {
    public var id: RequestID
    public var body: RequestBody

    public init(id: RequestID, _ body: RequestBody) {
        self.id = id
        self.body = body
    }
}
