public import AppFlipCore

/// Fetches a host's well-known file as its platform does and checks it: what `appflip aasa check`, `appflip
/// aasa fetch`, `appflip assetlinks check` and the audit's two association targets run.
public struct HostedCheckRunner: Sendable {
    /// Where from, trusting whom, how long.
    public let options: HostedFetchOptions
    /// Told of each file as soon as it is fetched.
    public let observer: HostedFetchObserver?

    /// A runner fetching with `options`, telling `observer` of each file fetched.
    public init(options: HostedFetchOptions, observer: HostedFetchObserver? = nil) {
        self.options = options
        self.observer = observer
    }

    /// `check`'s report on the file `host` serves; a host that does not answer, or a CA file that cannot be
    /// read, is a report that could not run.
    public func run<Check: HostedFileCheck>(_ check: Check, host: String) async -> HostedReport<Check.Details> {
        let host = host.lowercased()
        let fetches: [HostedFetch]
        do {
            fetches = try await HostedFileFetcher(policy: check.policy, options: options, observer: observer).fetch(
                host: host,
                includes: Check.includes(of:)
            )
        } catch {
            let url = options.source.location(of: host, policy: check.policy).url
            fetches = [HostedFetch(url: url, fetchedFrom: url, result: .failed(reason: error.description))]
        }
        return check.check(host: host, fetches: fetches)
    }
}
