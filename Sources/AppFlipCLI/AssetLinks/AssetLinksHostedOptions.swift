import AppFlipHTTPClient
import ArgumentParser

/// Whom to trust, which port, how long: shared by `assetlinks fetch` and `assetlinks check`.
struct AssetLinksHostedOptions: ParsableArguments {
    @Option(name: .customLong("ca-file"), help: "Trust only the certificates in this PEM file instead of the system's trust store.")
    var caFile: String?

    @Option(help: "Connect to this port instead of 443 (a local test server; Android always uses 443).")
    var port: Int?

    @Option(help: "Seconds the whole fetch, includes included, may take.")
    var timeout: Double = 10

    func validate() throws {
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds") }
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be between 1 and 65535") }
    }

    var fetchOptions: HostedFetchOptions {
        HostedFetchOptions(
            source: .direct(port: port),
            trust: caFile.map(HostedFileTrust.caFile) ?? .system,
            timeout: .milliseconds(Int64(timeout * 1000))
        )
    }

    /// `domain` as a host name: no scheme, path or port; a usage error otherwise.
    static func host(_ domain: String) throws -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
        guard !domain.isEmpty, domain.allSatisfy({ allowed.contains($0) }), !domain.hasPrefix("."), !domain.hasSuffix(".") else {
            throw ValidationError("\(domain) is not a host name (e.g. example.com, without https:// or a path)")
        }
        return domain.lowercased()
    }
}
