import AppFlipCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL

/// Fetches a domain's hosted apple-app-site-association file as iOS does, and loads it.
///
/// HTTPS verified against the system's trust store (or a CA file); no redirect followed (a 3xx fails and names
/// its `Location`); 200 required; `application/json` required; at most 128 KB, reading stops past it; one
/// timeout for the whole fetch, body included (`OutboundBounds`, through `HTTPClient.startExchange`). Each
/// failure names the `HostingRule` it broke and what was seen. Used by `appflip aasa fetch|check` and by
/// `appflip audit`.
public struct HostedAssociationFetcher: Sendable {
    /// Where from, trusting whom, how long.
    public let options: HostedAssociationFetchOptions

    /// A fetcher with `options`; it holds no connection between fetches.
    public init(options: HostedAssociationFetchOptions = HostedAssociationFetchOptions()) {
        self.options = options
    }

    /// Fetches and loads `domain`'s file (a host name such as `example.com`) with `options`.
    public static func fetch(
        domain: String,
        options: HostedAssociationFetchOptions = HostedAssociationFetchOptions()
    ) async throws(HostedAssociationFailure) -> HostedAssociationFile {
        try await HostedAssociationFetcher(options: options).fetch(domain: domain)
    }

    /// Fetches and loads `domain`'s file (a host name such as `example.com`), with a client made for this
    /// fetch and shut down after it.
    public func fetch(domain: String) async throws(HostedAssociationFailure) -> HostedAssociationFile {
        let url = options.source.url(for: domain)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: try configuration(url: url))
        let result: Result<HostedAssociationFile, HostedAssociationFailure>
        do {
            result = .success(try await fetch(domain: domain, url: url, client: client))
        } catch {
            result = .failure(error)
        }
        try? await client.shutdown()
        return try result.get()
    }

    private func configuration(url: String) throws(HostedAssociationFailure) -> HTTPClient.Configuration {
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
                throw HostedAssociationFailure(.reachable, url: url, "cannot read the CA file \(path): \(error)")
            }
        }
        configuration.tlsConfiguration = tls
        return configuration
    }

    /// The bounds of one fetch: the options' timeout for the whole of it, their size for the body.
    var bounds: OutboundBounds { OutboundBounds(deadline: options.timeout, maximumBodySize: options.maximumSize) }

    private func fetch(domain: String, url: String, client: HTTPClient) async throws(HostedAssociationFailure) -> HostedAssociationFile {
        let response: StartedExchange
        do throws(TransportFailure) {
            response = try await client.startExchange(HTTPClientRequest(url: url), bounds: bounds, endpoint: "the server")
        } catch {
            throw Self.failure(error, url: url)
        }
        let status = "\(response.status.code) \(response.status.reasonPhrase)"
        if (300..<400).contains(response.status.code) {
            let location = response.headers.first(name: "location").map { "to \($0)" } ?? "without a Location"
            throw HostedAssociationFailure(.noRedirect, url: url, "\(status) \(location); iOS follows no redirect")
        }
        guard response.status == .ok else {
            throw HostedAssociationFailure(.status, url: url, "\(status); iOS needs 200 OK")
        }
        let contentType = response.headers.first(name: "content-type") ?? ""
        guard Self.isJSON(contentType) else {
            let served = contentType.isEmpty ? "no Content-Type" : "Content-Type \(contentType)"
            throw HostedAssociationFailure(.contentType, url: url, "\(served); Apple asks for application/json")
        }
        let bytes: [UInt8]
        do throws(TransportFailure) {
            bytes = try await response.body()
        } catch {
            throw Self.failure(error, url: url)
        }
        do {
            let file = try AssociationFile(json: bytes)
            return HostedAssociationFile(domain: domain, url: url, contentType: contentType, bytes: bytes, file: file)
        } catch {
            let errors = error.errors
            let first = errors.first.map { ": " + $0.description } ?? ""
            throw HostedAssociationFailure(
                .validFile,
                url: url,
                "the file was refused (\(errors.count == 1 ? "1 error" : "\(errors.count) errors"))\(first)",
                diagnostics: error.diagnostics
            )
        }
    }

    /// `application/json`, with any parameters (`; charset=utf-8`), compared case-insensitively.
    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.prefix { $0 != ";" }.trimmingASCIIWhitespace.lowercased()
        return mediaType == "application/json"
    }

    /// A transport failure as a failed rule: a failed TLS handshake breaks `hosting.https`, a body over the
    /// size `hosting.size` (Apple's documented limit); the rest mean the host gave no file (`hosting.reachable`:
    /// the check could not run), the bound it hit named.
    static func failure(_ failure: TransportFailure, url: String) -> HostedAssociationFailure {
        switch failure.kind {
        case .tls: HostedAssociationFailure(.https, url: url, failure.description)
        case .bodyTooLarge:
            HostedAssociationFailure(.size, url: url, "\(failure.description); Apple accepts at most \(AssociationFile.maximumSize) bytes")
        default: HostedAssociationFailure(.reachable, url: url, failure.description)
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs, as HTTP header values are compared (RFC 9110 §5.5).
    var trimmingASCIIWhitespace: Substring {
        let text = Substring(self)
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return text[start..<Swift.max(start, end)]
    }
}
