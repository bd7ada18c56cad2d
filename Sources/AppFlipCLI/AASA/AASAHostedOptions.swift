import AppFlipCore
import AppFlipHTTPClient
import ArgumentParser

/// The options `aasa fetch` and `aasa check` share: the domain, where to fetch from, whom to trust, how long.
struct AASAHostedOptions: ParsableArguments {
    @Argument(
        help: """
            The associated domain: example.com (fetched through Apple's CDN, as devices do), or \
            example.com?mode=developer (fetched from the domain itself). An applinks: prefix is allowed.
            """
    )
    var domain: String

    @OptionGroup var fetchSource: AASAFetchSourceOptions

    @Option(help: "Seconds the whole fetch may take.")
    var timeout: Double = 10

    /// The domain as an entitlement entry; a wildcard or an invalid one is a usage error.
    func associatedDomain() throws -> AssociatedDomain {
        try AASAFetchSourceOptions.associatedDomain(domain)
    }

    func validate() throws {
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds") }
        _ = try fetchOptions()
    }

    /// The fetch options: Apple's CDN (or --cdn-base), or the domain itself for ?mode=developer.
    func fetchOptions() throws -> HostedFetchOptions {
        try fetchSource.fetchOptions(for: try associatedDomain(), timeout: .milliseconds(Int64(timeout * 1000)))
    }
}
