public import AppFlipCore

/// One statement list fetched: where from, and what the fetch saw, for the verifiers to judge.
public struct AssetLinksFetch: Sendable, Hashable {
    /// The URL the verifiers know it by: the file's port-less `https://HOST/.well-known/assetlinks.json`, or
    /// an include as written.
    public let url: String
    /// The URL fetched: `url`, or with a test server's port.
    public let fetchedFrom: String
    /// The answer: status, `Location`, `Content-Type`, `Content-Length` and the body (read for any status,
    /// within the cap), or why there was none.
    public let result: FetchResult
    /// The `Content-Length` declared more than the size cap: nothing was read and `result` is a failure. A
    /// longer body sent without one is a failure of the fetch (appflip's bound), not this.
    public let overSize: Bool

    /// What fetching `fetchedFrom` (known to the verifiers as `url`) gave.
    public init(url: String, fetchedFrom: String, result: FetchResult, overSize: Bool = false) {
        self.url = url
        self.fetchedFrom = fetchedFrom
        self.result = result
        self.overSize = overSize
    }
}

/// A host's `/.well-known/assetlinks.json` and the includes it names, fetched and not yet judged.
public struct HostedStatementLists: Sendable {
    /// The host, lower-cased.
    public let host: String
    /// Every file fetched: the host's own first, then its includes in the order met.
    public let fetches: [AssetLinksFetch]

    /// Wraps what a fetch found.
    public init(host: String, fetches: [AssetLinksFetch]) {
        self.host = host
        self.fetches = fetches
    }

    /// The host's own file.
    public var file: AssetLinksFetch { fetches[0] }

    /// Every answer by URL, as both verifiers take them.
    public var responses: [String: FetchResult] {
        Dictionary(fetches.map { ($0.url, $0.result) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Why a fetch could not start: the CA file is unreadable.
public struct AssetLinksFetchError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}
