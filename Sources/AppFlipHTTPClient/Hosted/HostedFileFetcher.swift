public import AppFlipCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL

/// Fetches a host's well-known file, and the files it includes, as the platform's verifier does, and judges
/// nothing: `HostingVerdict` and the platform's `HostedFileCheck` do.
///
/// HTTPS verified against the system's trust store (or a CA file); no redirect followed (its status and
/// `Location` recorded); a body read only when the policy reads it, at most the policy's size, reading stopping
/// as soon as a body is known to be over it; one timeout for the file and its includes together
/// (`OutboundBounds`, through `HTTPClient.startExchange`). The host's own file is named `the server` in a
/// failure's words, an include by its URL.
public struct HostedFileFetcher: Sendable {
    /// What the platform reads, and how much.
    public let policy: HostingPolicy
    /// Where from, trusting whom, how long.
    public let options: HostedFetchOptions

    /// Told of each file as soon as it is fetched (`appflip audit` records it).
    public let observer: HostedFetchObserver?

    /// A fetcher; it holds no connection between fetches.
    public init(policy: HostingPolicy, options: HostedFetchOptions, observer: HostedFetchObserver? = nil) {
        self.policy = policy
        self.options = options
        self.observer = observer
    }

    /// Fetches `host`'s file, then the files `includes` names in each file fetched, nested, at most the
    /// policy's `fileBudget` in all, with a client made for this fetch and shut down after it.
    /// - Throws: only when the fetch cannot start (the CA file is unreadable); a host that does not answer is a result.
    public func fetch(host: String, includes: (HostedFetch) -> [String] = { _ in [] }) async throws(HostedFetchError) -> [HostedFetch] {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: try configuration())
        let deadline = ContinuousClock.now + options.timeout
        let (url, fetchedFrom) = options.source.location(of: host, policy: policy)
        var fetches = [await fetch(fetchedFrom, as: url, endpoint: "the server", client: client, deadline: deadline)]
        var next = 0
        while next < fetches.count, fetches.count < policy.fileBudget {
            for include in includes(fetches[next]) where !fetches.contains(where: { $0.url == include }) {
                guard fetches.count < policy.fileBudget else { break }
                fetches.append(await fetch(include, as: include, endpoint: include, client: client, deadline: deadline))
            }
            next += 1
        }
        try? await client.shutdown()
        return fetches
    }

    private func configuration() throws(HostedFetchError) -> HTTPClient.Configuration {
        // appflip's one outbound configuration (no redirect, no decompression, one connection attempt, as a
        // device makes), with the trust the options name. Connecting gets at most half the fetch's timeout, so
        // that a handshake that never ends is reported as that, not as a silent server.
        let connectTimeout = min(options.timeout / 2, OutboundBounds.connectTimeout)
        var configuration = HTTPClient.Configuration.appFlipOAuth(connectTimeout: connectTimeout)
        var tls = configuration.tlsConfiguration ?? .makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if case .caFile(let path) = options.trust {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
            } catch {
                throw HostedFetchError(description: "cannot read the CA file \(path): \(error)")
            }
        }
        configuration.tlsConfiguration = tls
        return configuration
    }

    /// One file, within what is left of the fetch's deadline, told to the observer.
    private func fetch(
        _ fetchedFrom: String,
        as url: String,
        endpoint: String,
        client: HTTPClient,
        deadline: ContinuousClock.Instant
    ) async -> HostedFetch {
        let started = ContinuousClock.now
        var answered: StartedExchange?
        let fetch = await fetchFile(fetchedFrom, as: url, endpoint: endpoint, client: client, deadline: deadline, answered: &answered)
        observer?(
            HostedFetchTrace(
                fetch: fetch,
                headers: answered.map { $0.headers.map { ($0.name, $0.value) } } ?? [],
                version: answered.map { "\($0.version)" },
                started: started,
                duration: .now - started
            )
        )
        return fetch
    }

    private func fetchFile(
        _ fetchedFrom: String,
        as url: String,
        endpoint: String,
        client: HTTPClient,
        deadline: ContinuousClock.Instant,
        answered: inout StartedExchange?
    ) async -> HostedFetch {
        let remaining = deadline - .now
        guard remaining > .zero else {
            return HostedFetch(
                url: url,
                fetchedFrom: fetchedFrom,
                result: .failed(reason: "the fetch's \(options.timeout) ran out before \(fetchedFrom)")
            )
        }
        let started: StartedExchange
        do throws(TransportFailure) {
            let bounds = OutboundBounds(deadline: remaining, maximumBodySize: policy.readLimit)
            started = try await client.startExchange(HTTPClientRequest(url: fetchedFrom), bounds: bounds, endpoint: endpoint)
        } catch {
            let result: FetchResult =
                switch error.kind {
                case .tls: .tlsFailed(reason: error.description)
                case .notHTTP: .malformedHTTP(reason: error.description)
                default: .failed(reason: error.description)
                }
            return HostedFetch(url: url, fetchedFrom: fetchedFrom, result: result)
        }
        answered = started
        let headers = started.headers
        var response = HostResponse(
            status: Int(started.status.code),
            location: headers.first(name: "location"),
            contentType: headers.first(name: "content-type"),
            contentLength: headers.first(name: "content-length").flatMap { Int($0) }
        )
        let reasonPhrase = started.status.reasonPhrase
        guard policy.readsBody(status: response.status, contentType: response.contentType) else {
            return HostedFetch(url: url, fetchedFrom: fetchedFrom, result: .response(response), reasonPhrase: reasonPhrase)
        }
        if let declared = response.contentLength, declared > policy.maximumSize, policy.readLimit > policy.maximumSize {
            // The declaration alone decides what each verifier does (or that appflip cannot tell): read nothing.
            response.cutAt = 0
            let reason =
                "\(endpoint) declares \(declared) bytes (Content-Length), over \(TransportFailure.size(policy.maximumSize)); \(policy.consequences.size)"
            let failure = HostedFetch.BodyFailure(reason: reason, overCap: .declared)
            return HostedFetch(url: url, fetchedFrom: fetchedFrom, result: .response(response), reasonPhrase: reasonPhrase, bodyFailure: failure)
        }
        do throws(TransportFailure) {
            response.body = try await started.body()
        } catch {
            let overCap: HostedFetch.OverCap? =
                error.kind != .bodyTooLarge ? nil : (response.contentLength ?? 0) > policy.readLimit ? .declared : .sent
            var reason = error.description
            switch overCap {
            case .declared?:
                response.cutAt = 0
                reason += "; \(policy.consequences.size)"
            case .sent?:
                response.cutAt = policy.readLimit
                reason += "; \(policy.consequences.sizeSent)"
                if policy.readLimit > policy.maximumSize { reason += "; appflip reads at most \(TransportFailure.size(policy.readLimit))" }
            case nil:
                break
            }
            let failure = HostedFetch.BodyFailure(reason: reason, overCap: overCap)
            return HostedFetch(url: url, fetchedFrom: fetchedFrom, result: .response(response), reasonPhrase: reasonPhrase, bodyFailure: failure)
        }
        return HostedFetch(url: url, fetchedFrom: fetchedFrom, result: .response(response), reasonPhrase: reasonPhrase)
    }
}
