import AppFlipCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL

/// Fetches a domain's hosted apple-app-site-association file as iOS does, and loads it.
///
/// HTTPS verified against the system's trust store (or a CA file); no redirect followed (a 3xx fails and names
/// its `Location`); 200 required; `application/json` required; at most 128 KB, reading stops past it; one
/// timeout for the whole fetch. Each failure names the `HostingRule` it broke and what was seen. Used by
/// `appflip aasa fetch|check` and by `appflip audit`.
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
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        if case .caFile(let path) = options.trust {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
            } catch {
                throw HostedAssociationFailure(.reachable, url: url, "cannot read the CA file \(path): \(error)")
            }
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(options.timeout), read: TimeAmount(options.timeout))
        )
        // One attempt, as a device makes: a refused connection or a bad certificate fails now, not at the timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    private func fetch(domain: String, url: String, client: HTTPClient) async throws(HostedAssociationFailure) -> HostedAssociationFile {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(HTTPClientRequest(url: url), timeout: TimeAmount(options.timeout))
        } catch {
            throw Self.failure(error, url: url, timeout: options.timeout)
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
        let bytes = try await body(of: response, url: url)
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

    /// The body, read up to `maximumSize`: a longer one fails as soon as it is known, without reading the rest.
    private func body(of response: HTTPClientResponse, url: String) async throws(HostedAssociationFailure) -> [UInt8] {
        let limit = options.maximumSize
        if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > limit {
            throw HostedAssociationFailure(.size, url: url, "Content-Length \(declared) bytes; Apple accepts at most \(limit)")
        }
        var bytes: [UInt8] = []
        do {
            for try await chunk in response.body {
                guard bytes.count + chunk.readableBytes <= limit else {
                    throw HostedAssociationFailure(
                        .size,
                        url: url,
                        "more than \(limit) bytes (stopped reading at \(bytes.count + chunk.readableBytes)); Apple accepts at most \(limit)"
                    )
                }
                bytes += chunk.readableBytesView
            }
        } catch let failure as HostedAssociationFailure {
            throw failure
        } catch {
            throw Self.failure(error, url: url, timeout: options.timeout)
        }
        return bytes
    }

    /// `application/json`, with any parameters (`; charset=utf-8`), compared case-insensitively.
    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.prefix { $0 != ";" }.trimmingASCIIWhitespace.lowercased()
        return mediaType == "application/json"
    }

    /// A transport error as a failed rule: TLS errors break `hosting.https`; the rest mean the host did not
    /// answer (`hosting.reachable`).
    static func failure(_ error: any Error, url: String, timeout: Duration) -> HostedAssociationFailure {
        switch error {
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
            return HostedAssociationFailure(.https, url: url, "TLS failed: \(error)")
        case let error as HTTPClientError
        where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout:
            return HostedAssociationFailure(.reachable, url: url, "no answer within \(timeout) (\(error))")
        default:
            return HostedAssociationFailure(.reachable, url: url, "cannot fetch: \(error)")
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
