/// One hosted file fetched, not yet judged: the URL the platform knows it by, the URL fetched, and what came
/// back. `HostingVerdict` judges the hosting rules from it; Android's verifiers read `verifierResult`.
public struct HostedFetch: Sendable, Hashable {
    /// The URL the platform knows the file by: the port-less well-known URL, Apple's CDN URL, or an include
    /// as written.
    public let url: String
    /// The URL fetched: `url`, or with a local test server's port.
    public let fetchedFrom: String
    /// What came back: a response (status, `Location`, `Content-Type`, `Content-Length`, and the body when the
    /// policy read it), a failed TLS handshake, or no answer at all.
    public let result: FetchResult
    /// The status line's reason phrase (`Moved Permanently`); empty without a response.
    public let reasonPhrase: String
    /// Why the response's body could not be read, when it could not.
    public let bodyFailure: BodyFailure?

    /// A body that could not be read whole.
    public struct BodyFailure: Sendable, Hashable {
        /// The transport's words; past the cap, with the policy's consequence.
        public let reason: String
        /// Whether the body was past the size cap, and how that was known.
        public let overCap: OverCap?

        /// A body failure.
        public init(reason: String, overCap: OverCap?) {
            self.reason = reason
            self.overCap = overCap
        }
    }

    /// How a body was known to be past the size rule's limit, or appflip's read bound.
    public enum OverCap: Sendable, Hashable {
        /// Its `Content-Length` said so: nothing was read.
        case declared
        /// It was sent without one, and reading stopped at appflip's bound (the policy's `readLimit`).
        case sent
    }

    /// What fetching `fetchedFrom` (known as `url`) gave.
    public init(url: String, fetchedFrom: String, result: FetchResult, reasonPhrase: String = "", bodyFailure: BodyFailure? = nil) {
        self.url = url
        self.fetchedFrom = fetchedFrom
        self.result = result
        self.reasonPhrase = reasonPhrase
        self.bodyFailure = bodyFailure
    }

    /// A local file, judged as if `url` answered it with 200 and `application/json`.
    public static func local(_ body: [UInt8], url: String, path: String) -> HostedFetch {
        let response = HostResponse(status: 200, contentType: "application/json", contentLength: body.count, body: body)
        return HostedFetch(url: url, fetchedFrom: path, result: .response(response), reasonPhrase: "OK")
    }

    /// The answer as Android's verifiers take it: a body over appflip's bound is the response as read, its
    /// `cutAt` set, for each verifier to say what it does with the rest; a 200 whose body was cut short for
    /// another reason is no answer.
    public var verifierResult: FetchResult {
        guard let bodyFailure, bodyFailure.overCap == nil, case .response(let response) = result, response.status == 200 else { return result }
        return .failed(reason: bodyFailure.reason)
    }

    /// The response, when one came.
    public var response: HostResponse? {
        guard case .response(let response) = result else { return nil }
        return response
    }

    /// The status and its reason phrase, `301 Moved Permanently`.
    public var statusLine: String {
        let status = response.map { "\($0.status)" } ?? "no answer"
        return reasonPhrase.isEmpty ? status : "\(status) \(reasonPhrase)"
    }
}
