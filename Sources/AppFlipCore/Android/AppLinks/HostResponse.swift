/// What fetching one URL gave, already fetched: the verifiers here are pure functions of these.
public enum FetchResult: Sendable, Hashable {
    case response(HostResponse)
    /// No HTTP response: connection refused, DNS, a timeout.
    case failed(reason: String)
    /// The TLS handshake failed: the certificate is for another name, expired, or not trusted.
    case tlsFailed(reason: String)
    /// Bytes came back that are not an HTTP/1.1 answer.
    case malformedHTTP(reason: String)
}

/// One HTTP response, the redirect never followed.
public struct HostResponse: Sendable, Hashable {
    public var status: Int
    /// The `Location` header of a redirect.
    public var location: String?
    /// The `Content-Type` header as sent.
    public var contentType: String?
    /// The `Content-Length` header, when the server sent one: StatementService checks its size limit
    /// against it, not against the bytes read (`UrlFetcher.kt`).
    public var contentLength: Int?
    /// The body, or as much of it as appflip read (`cutAt`).
    public var body: [UInt8]
    /// Where appflip stopped reading a longer body: at its own bound for a body sent without a
    /// `Content-Length`, at 0 for one whose `Content-Length` decided every verifier without it; nil when
    /// `body` is the whole body.
    public var cutAt: Int?

    public init(
        status: Int,
        location: String? = nil,
        contentType: String? = "application/json",
        contentLength: Int? = nil,
        body: [UInt8] = [],
        cutAt: Int? = nil
    ) {
        self.status = status
        self.location = location
        self.contentType = contentType
        self.contentLength = contentLength
        self.body = body
        self.cutAt = cutAt
    }

    /// `Content-Length` as Java's `URLConnection.getContentLength()` gives it to both StatementService
    /// fetchers: -1 when absent or above `Integer.MAX_VALUE`, so that such a body is read as if undeclared.
    public var javaContentLength: Int {
        guard let contentLength, contentLength <= Int(Int32.max) else { return -1 }
        return contentLength
    }

    /// Whether the body is over `limit` bytes, by its `Content-Length` or by what was read (a body cut at
    /// `limit` or later is longer than that).
    public func exceeds(_ limit: Int) -> Bool {
        (contentLength ?? 0) > limit || body.count > limit || (cutAt.map { $0 >= limit } ?? false)
    }

    /// Whether the media type is `application/json`, parameters such as `charset` aside.
    public var isJSON: Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return mediaType.trimmingASCIIWhitespace().lowercasedASCII == "application/json"
    }
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
