/// One HTTP exchange of an audit, redacted as every output is (a code, token, secret or cookie only as its
/// length and fingerprint): what was sent, what came back, and when. The judges read every exchange of the
/// run, and each finding names the exchanges that showed it by `#id`.
public struct RecordedExchange: Sendable, Hashable {
    /// The kind of partner endpoint the request went to.
    public enum Endpoint: String, Sendable, Hashable, CaseIterable {
        case authorization, token, revocation, resource
        /// The sign-out URL that ends a session (`token.refresh-outlives-session`).
        case signOut = "sign-out"
        /// A hosted association file (apple-app-site-association, assetlinks.json) or a file it includes.
        case hostedFile = "hosted-file"
    }

    /// A header or form field, its value redacted when its name says it is secret.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    /// The request as sent, redacted.
    public struct Request: Sendable, Hashable {
        public var method: String
        /// The URL with every secret parameter as its length and fingerprint.
        public var url: String
        public var headers: [Field]
        /// The form body's fields, for a POST.
        public var form: [Field]
    }

    /// The response as received, redacted.
    public struct Response: Sendable, Hashable {
        public var status: Int
        /// The protocol version the answer came in, e.g. `HTTP/1.1`.
        public var httpVersion: String
        public var headers: [Field]
        /// A JSON object with every secret member as its length and fingerprint, or the body's size and type.
        public var body: String
        /// The body's size in bytes, as received.
        public var bodySize: Int
    }

    /// The exchange's number in the run, from 1, in the order the requests were sent.
    public var id: Int
    public var endpoint: Endpoint
    /// What the request was for, e.g. `token.wrong-secret: a wrong secret (HTTP Basic)`.
    public var purpose: String
    public var request: Request
    /// The response; nil when none came (`failure` says why).
    public var response: Response?
    public var failure: String?
    /// When the request was sent, from the start of the run.
    public var started: Duration
    /// How long the exchange took.
    public var duration: Duration
}
