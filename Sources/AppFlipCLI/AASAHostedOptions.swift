import AppFlipAssociation
import AppFlipCore
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

    @Option(name: .customLong("cdn-base"), help: "The CDN to fetch through: BASE/DOMAIN. Default: Apple's.")
    var cdnBase = HostedAssociationSource.appleCDNBase

    @Option(help: "With ?mode=developer: connect to this port instead of 443 (a local test server; iOS always uses 443).")
    var port: Int?

    @Option(name: .customLong("ca-file"), help: "Trust only the certificates in this PEM file instead of the system's trust store.")
    var caFile: String?

    @Option(help: "Seconds the whole fetch may take.")
    var timeout: Double = 10

    /// The domain as an entitlement entry; a wildcard or an invalid one is a usage error.
    func associatedDomain() throws -> AssociatedDomain {
        let entry: AssociatedDomain
        do {
            entry = try AssociatedDomain(domain.hasPrefix("applinks:") ? domain : "applinks:" + domain)
        } catch {
            throw ValidationError("the domain is not usable: \(error)")
        }
        guard !entry.isWildcard else {
            throw ValidationError("\(entry) is a wildcard; name the host whose file to fetch (e.g. www.\(entry.host))")
        }
        return entry
    }

    func validate() throws {
        let entry = try associatedDomain()
        if port != nil, !entry.modes.contains(.developer) {
            throw ValidationError("--port is for a direct fetch: add ?mode=developer to the domain")
        }
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds") }
    }

    /// The fetch options: Apple's CDN (or --cdn-base), or the domain itself for ?mode=developer.
    func fetchOptions() throws -> HostedAssociationFetchOptions {
        HostedAssociationFetchOptions(
            source: HostedAssociationSource.chosen(for: try associatedDomain(), cdnBase: cdnBase, port: port),
            trust: caFile.map(HostedAssociationTrust.caFile) ?? .system,
            timeout: .milliseconds(Int64(timeout * 1000))
        )
    }
}
