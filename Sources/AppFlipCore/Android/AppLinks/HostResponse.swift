/// What fetching one URL gave, already fetched: the verifiers here are pure functions of these.
public enum FetchResult: Sendable, Hashable {
    case response(HostResponse)
    /// No HTTP response: connection refused, DNS, a timeout.
    case failed(reason: String)
    /// The TLS handshake failed: the certificate is for another name, expired, or not trusted.
    case tlsFailed(reason: String)
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
    public var body: [UInt8]

    public init(status: Int, location: String? = nil, contentType: String? = "application/json", contentLength: Int? = nil, body: [UInt8] = []) {
        self.status = status
        self.location = location
        self.contentType = contentType
        self.contentLength = contentLength
        self.body = body
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
