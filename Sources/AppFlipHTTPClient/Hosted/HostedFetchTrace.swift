public import AppFlipCore

/// One file of a hosted fetch as a record of the run sees it: what was fetched and came back, the answer's
/// headers as sent and its protocol version, and when. `appflip audit` records each as an exchange of its run
/// (`--har`); the checks read only the ``HostedFetch``.
public struct HostedFetchTrace: Sendable {
    /// What was fetched and what came back.
    public var fetch: HostedFetch
    /// The answer's headers, in order, as sent; empty when no answer came.
    public var headers: [(name: String, value: String)]
    /// The answer's protocol version, e.g. `HTTP/1.1`; nil when no answer came.
    public var version: String?
    /// When the request was sent.
    public var started: ContinuousClock.Instant
    /// How long the fetch of this file took, its body included.
    public var duration: Duration
}

/// Receives each file of a hosted fetch as soon as it is fetched.
public typealias HostedFetchObserver = @Sendable (HostedFetchTrace) -> Void
