import AppFlipCore
import AppFlipHTTPClient
import ArgumentParser

/// Where a hosted file is fetched from and whom to trust: shared by `aasa fetch`, `aasa check` and `audit
/// --aasa-domain`, so that the three fetch alike.
struct AASAFetchSourceOptions: ParsableArguments {
    @Option(name: .customLong("cdn-base"), help: "The CDN to fetch through: BASE/DOMAIN. Default: Apple's.")
    var cdnBase: String?

    @Option(help: "With ?mode=developer: connect to this port instead of 443 (a local test server; iOS always uses 443).")
    var port: Int?

    @Option(name: .customLong("ca-file"), help: "Trust only the certificates in this PEM file instead of the system's trust store.")
    var caFile: String?

    /// True when any of the options was given.
    var isGiven: Bool { cdnBase != nil || port != nil || caFile != nil }

    /// `domain` (`example.com`, `example.com?mode=developer`, an `applinks:` prefix allowed) as an entitlement
    /// entry; a wildcard or an invalid one is a usage error.
    static func associatedDomain(_ domain: String) throws -> AssociatedDomain {
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

    /// The fetch options for `entry`: Apple's CDN (or --cdn-base), or the domain itself for ?mode=developer;
    /// --port without ?mode=developer is a usage error.
    func fetchOptions(for entry: AssociatedDomain, timeout: Duration) throws -> HostedFetchOptions {
        if port != nil, !entry.modes.contains(.developer) {
            throw ValidationError("--port is for a direct fetch: add ?mode=developer to the domain")
        }
        return HostedFetchOptions(
            source: HostedFileSource.chosen(for: entry, cdnBase: cdnBase ?? HostedFileSource.appleCDNBase, port: port),
            trust: caFile.map(HostedFileTrust.caFile) ?? .system,
            timeout: timeout
        )
    }
}
