import AppFlipCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL

/// Fetches a host's Digital Asset Links statement list and its includes as Android's verifiers fetch them,
/// and judges nothing: `GoogleVerifier` and `StatementServiceVerifier` decide from the `FetchResult`s.
///
/// HTTPS verified against the system's trust store (or a CA file); no redirect followed (its status and
/// `Location` recorded); every status's answer recorded; at most 1 MiB read per file, reading stopping as
/// soon as a body is known to be over it (StatementService's limit on the declared `Content-Length`,
/// `UrlFetcher.kt`); one timeout for the
/// file and its includes together (`OutboundBounds`, through `HTTPClient.startExchange`). Includes are the
/// `https` ones the statement lists name, nested, at most `GoogleVerifier.fetchBudget` files in all:
/// StatementService reads one level of them, Google's verifier more.
public struct AssetLinksFetcher: Sendable {
    /// Trusting whom, how long, how much.
    public let options: AssetLinksFetchOptions

    /// A fetcher with `options`; it holds no connection between fetches.
    public init(options: AssetLinksFetchOptions = AssetLinksFetchOptions()) {
        self.options = options
    }

    /// Fetches `host`'s statement list and its includes, with a client made for this fetch and shut down after it.
    /// - Throws: only when the fetch cannot start (the CA file is unreadable); an unreachable host is a result.
    public func fetch(host: String) async throws(AssetLinksFetchError) -> HostedStatementLists {
        let host = host.lowercased()
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: try configuration())
        let deadline = ContinuousClock.now + options.timeout
        let url = StatementServiceVerifier.statementListURL(forManifestHost: host)
        let fetchedFrom = "https://\(host)\(options.port.map { ":\($0)" } ?? "")/.well-known/assetlinks.json"
        var fetches = [await fetch(fetchedFrom, as: url, client: client, deadline: deadline)]
        var next = 0
        while next < fetches.count, fetches.count < GoogleVerifier.fetchBudget {
            for include in Self.includes(of: fetches[next]) where !fetches.contains(where: { $0.url == include }) {
                guard fetches.count < GoogleVerifier.fetchBudget else { break }
                fetches.append(await fetch(include, as: include, client: client, deadline: deadline))
            }
            next += 1
        }
        try? await client.shutdown()
        return HostedStatementLists(host: host, fetches: fetches)
    }

    /// The `https` includes a 200 answer names; an `http` one neither verifier reads from an https file.
    static func includes(of fetch: AssetLinksFetch) -> [String] {
        guard case .response(let response) = fetch.result, response.status == 200 else { return [] }
        return StatementList(json: response.body).entries.compactMap { entry in
            guard case .url(let include)? = entry.include, (try? RawURL(include))?.normalizedScheme == "https" else { return nil }
            return include
        }
    }

    private func configuration() throws(AssetLinksFetchError) -> HTTPClient.Configuration {
        // appflip's one outbound configuration: no redirect, no decompression, one connection attempt.
        let connectTimeout = min(options.timeout / 2, OutboundBounds.connectTimeout)
        var configuration = HTTPClient.Configuration.appFlipOAuth(connectTimeout: connectTimeout)
        var tls = configuration.tlsConfiguration ?? .makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if case .caFile(let path) = options.trust {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
            } catch {
                throw AssetLinksFetchError(description: "cannot read the CA file \(path): \(error)")
            }
        }
        configuration.tlsConfiguration = tls
        return configuration
    }

    private func fetch(_ fetchedFrom: String, as url: String, client: HTTPClient, deadline: ContinuousClock.Instant) async -> AssetLinksFetch {
        let remaining = deadline - .now
        guard remaining > .zero else {
            return AssetLinksFetch(
                url: url,
                fetchedFrom: fetchedFrom,
                result: .failed(reason: "the fetch's \(options.timeout) ran out before \(fetchedFrom)"),
                overSize: false
            )
        }
        let bounds = OutboundBounds(deadline: remaining, maximumBodySize: options.maximumSize)
        let started: StartedExchange
        do throws(TransportFailure) {
            started = try await client.startExchange(HTTPClientRequest(url: fetchedFrom), bounds: bounds, endpoint: fetchedFrom)
        } catch {
            let result: FetchResult = error.kind == .tls ? .tlsFailed(reason: error.description) : .failed(reason: error.description)
            return AssetLinksFetch(url: url, fetchedFrom: fetchedFrom, result: result, overSize: false)
        }
        let headers = started.headers
        var response = HostResponse(
            status: Int(started.status.code),
            location: headers.first(name: "location"),
            contentType: headers.first(name: "content-type"),
            contentLength: headers.first(name: "content-length").flatMap { Int($0) }
        )
        do throws(TransportFailure) {
            response.body = try await started.body()
        } catch {
            // Neither verifier reads the body of another status: only a 200's must be whole.
            if response.status != 200 {
                return AssetLinksFetch(url: url, fetchedFrom: fetchedFrom, result: .response(response), overSize: false)
            }
            // StatementService judges the declared Content-Length only (`UrlFetcher.kt`): a declared size over
            // the cap breaks its rule; a longer body sent without one hits appflip's bound, and nothing is judged.
            let overSize = error.kind == .bodyTooLarge && (response.contentLength ?? 0) > options.maximumSize
            let reason = error.kind == .bodyTooLarge ? "\(error.description); appflip reads no further" : error.description
            return AssetLinksFetch(url: url, fetchedFrom: fetchedFrom, result: .failed(reason: reason), overSize: overSize)
        }
        return AssetLinksFetch(url: url, fetchedFrom: fetchedFrom, result: .response(response), overSize: false)
    }
}
