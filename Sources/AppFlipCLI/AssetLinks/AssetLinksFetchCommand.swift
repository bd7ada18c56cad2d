import AppFlipCore
import AppFlipHTTPClient
import ArgumentParser

/// `appflip assetlinks fetch DOMAIN`: the statement list as served, and what the fetch saw.
struct AssetLinksFetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch a host's /.well-known/assetlinks.json as Android's verifiers do, and say what the fetch saw.",
        discussion: """
            Fetches https://DOMAIN/.well-known/assetlinks.json and the https includes it names (nested, at \
            most 10 files), verifying TLS against the system's trust store (or --ca-file), following no \
            redirect, within one --timeout. A body whose Content-Length is over 1 MiB is not read; one sent \
            without a Content-Length is read up to 4 MiB, as Android 12+'s StatementService reads on. The \
            file's body, as served, goes to stdout; for it and each include, the status, Location, \
            Content-Type, size and diagnostics (line:column pointer) go to stderr. It judges nothing: \
            `assetlinks check` does. docs/android.md.

            Exit status: 0 the file was answered 200 and read whole; 2 it was not (a redirect, another \
            status, TLS refused, a Content-Length over 1 MiB, a body past 4 MiB); 1 the host did not answer or \
            the CA file is unreadable; 64 the command line is wrong.
            """
    )

    @Argument(help: "The host, e.g. example.com.")
    var domain: String

    @OptionGroup var hosted: AssetLinksHostedOptions

    func validate() throws {
        _ = try AssetLinksHostedOptions.host(domain)
    }

    func run() async throws {
        let fetcher = HostedFileFetcher(policy: .assetLinks, options: hosted.fetchOptions)
        let fetches: [HostedFetch]
        do {
            fetches = try await fetcher.fetch(host: try AssetLinksHostedOptions.host(domain), includes: AssetLinksFileCheck.includes(of:))
        } catch {
            StandardStreams.writeError("appflip: \(error)")
            throw ExitCode(1)
        }
        for fetch in fetches {
            StandardStreams.writeError(Self.describe(fetch))
            if case .response(let response) = fetch.verifierResult, response.status == 200, response.cutAt == nil {
                for diagnostic in StatementList(json: response.body).diagnostics { StandardStreams.writeError("  " + diagnostic.description) }
            }
        }
        switch fetches[0].verifierResult {
        case .response(let response) where response.status == 200 && response.cutAt == nil:
            StandardStreams.writeOutput(response.body)
        case .failed, .malformedHTTP:
            throw ExitCode(1)
        default:
            throw ExitCode(2)
        }
    }

    /// `URL: 200, Content-Type application/json, 123 bytes` or why there was no answer.
    static func describe(_ fetch: HostedFetch) -> String {
        switch fetch.verifierResult {
        case .response(let response):
            var parts = ["\(fetch.fetchedFrom): \(response.status)"]
            if let location = response.location { parts.append("Location \(location)") }
            parts.append(response.contentType.map { "Content-Type \($0)" } ?? "no Content-Type")
            parts.append(fetch.bodyFailure.map { "body not read whole: \($0.reason)" } ?? "\(response.body.count) bytes")
            return parts.joined(separator: ", ")
        case .tlsFailed(let reason): return "\(fetch.fetchedFrom): TLS failed: \(reason)"
        case .failed(let reason): return "\(fetch.fetchedFrom): no answer: \(reason)"
        case .malformedHTTP(let reason): return "\(fetch.fetchedFrom): not an HTTP answer: \(reason)"
        }
    }
}
