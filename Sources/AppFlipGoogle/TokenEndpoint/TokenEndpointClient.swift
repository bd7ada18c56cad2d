import AppFlipCore
import AppFlipHTTPClient
public import AsyncHTTPClient
import FoundationEssentials
public import Logging
import NIOCore
import NIOHTTP1

/// Step 4, Google's side: exchanges a code at the partner's token endpoint, server to server, with the
/// identical redirect_uri and the client's credentials; and refreshes.
public struct TokenEndpointClient: Sendable {
    /// The partner's token endpoint.
    public var tokenURL: String
    /// The partner client id Google was given.
    public var clientID: String
    /// The client's secret; only its fingerprint is logged.
    public var clientSecret: String
    /// Where the credentials go: form body (Google's way) or Basic header.
    public var authentication: ClientAuthMethod
    /// How long one request may take, connection and body included; the body is capped at
    /// `OutboundBounds.oauthBodySize` (`OutboundBounds.oauth`).
    public var timeout: Duration
    private let httpClient: HTTPClient
    private let logger: Logger

    /// Creates a client; `httpClient` must not follow redirects, and its owner shuts it down.
    public init(
        tokenURL: String,
        clientID: String,
        clientSecret: String,
        authentication: ClientAuthMethod = .post,
        httpClient: HTTPClient,
        timeout: Duration = .seconds(10),
        logger: Logger
    ) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.authentication = authentication
        self.httpClient = httpClient
        self.timeout = timeout
        self.logger = logger
    }

    /// `grant_type=authorization_code`.
    public func exchange(
        code: String,
        redirectURI: String,
        codeVerifier: String? = nil
    ) async throws(TokenEndpointFailure)
        -> TokenResponse
    {
        var form = FormParameters()
        form.append("grant_type", "authorization_code")
        form.append("code", code)
        form.append("redirect_uri", redirectURI)
        if let codeVerifier { form.append("code_verifier", codeVerifier) }
        return try await post(form, grant: "authorization_code", secrets: [code] + (codeVerifier.map { [$0] } ?? []))
    }

    /// `grant_type=refresh_token`.
    public func refresh(refreshToken: String, scopes: [String]? = nil) async throws(TokenEndpointFailure) -> TokenResponse {
        var form = FormParameters()
        form.append("grant_type", "refresh_token")
        form.append("refresh_token", refreshToken)
        if let scopes { form.append("scope", scopes.joined(separator: " ")) }
        return try await post(form, grant: "refresh_token", secrets: [refreshToken])
    }

    /// Token revocation (RFC 7009) at `url`, with the same client authentication as the token requests:
    /// returns once the endpoint answered 200; any other answer throws `.endpoint`.
    public func revoke(token: String, tokenTypeHint: String?, at url: String) async throws(TokenEndpointFailure) {
        var form = FormParameters()
        form.append("token", token)
        if let tokenTypeHint { form.append("token_type_hint", tokenTypeHint) }
        let request = authenticatedRequest(url: url, form: form)
        let metadata: Logger.Metadata = [
            "revocation_url": "\(url)", "client_id": "\(clientID)", "token": "sha256:\(Fingerprint.of(token))",
        ]
        do throws(TokenEndpointFailure) {
            let (status, bytes) = try await execute(request, url: url)
            guard status == .ok else { throw Self.endpointError(status: status, bytes: bytes, secrets: [token, clientSecret]) }
            logger.info("token revoked", metadata: metadata)
        } catch {
            logger.notice("token revocation failed", metadata: metadata.merging(["reason": "\(error)"]) { $1 })
            throw error
        }
    }

    /// The RFC 8414 metadata of the authorization server that serves `tokenURL`: the string members of
    /// `<origin of tokenURL>/.well-known/oauth-authorization-server`.
    public func authorizationServerMetadata() async throws(TokenEndpointFailure) -> [String: String] {
        let url = Self.metadataURL(forTokenURL: tokenURL)
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let (status, bytes) = try await execute(request, url: url)
        guard status == .ok else { throw Self.endpointError(status: status, bytes: bytes, secrets: []) }
        guard let object = try? JSONDecoder().decode([String: MetadataValue].self, from: Data(bytes)) else {
            throw .malformedResponse("\(url) is not a JSON object")
        }
        return object.compactMapValues(\.string)
    }

    /// `scheme://authority/.well-known/oauth-authorization-server` for a token URL (RFC 8414 §3, no issuer path).
    public static func metadataURL(forTokenURL tokenURL: String) -> String {
        guard let url = try? RawURL(tokenURL) else { return tokenURL + "/.well-known/oauth-authorization-server" }
        return "\(url.scheme)://\(url.host)\(url.port.map { ":" + $0 } ?? "")/.well-known/oauth-authorization-server"
    }

    /// The HTTP status a protected resource answers to `GET url` with `Authorization: Bearer accessToken`.
    public func resourceStatus(url: String, accessToken: String) async throws(TokenEndpointFailure) -> Int {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(accessToken)")
        return Int(try await execute(request, url: url).0.code)
    }

    private struct MetadataValue: Decodable {
        var string: String?
        init(from decoder: any Decoder) throws {
            string = try? decoder.singleValueContainer().decode(String.self)
        }
    }

    private func authenticatedRequest(url: String, form: FormParameters) -> HTTPClientRequest {
        var form = form
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        switch authentication {
        case .post:
            form.append("client_id", clientID)
            form.append("client_secret", clientSecret)
        case .basic:
            let pair = PercentEncoding.encodeStrictly(clientID) + ":" + PercentEncoding.encodeStrictly(clientSecret)
            request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        }
        request.body = .bytes(ByteBuffer(string: form.encoded))
        return request
    }

    /// One exchange within `OutboundBounds.oauth(deadline: timeout)`.
    private func execute(
        _ request: HTTPClientRequest,
        url: String
    ) async throws(TokenEndpointFailure)
        -> (HTTPResponseStatus, [UInt8])
    {
        do throws(TransportFailure) {
            let response = try await httpClient.exchange(request, bounds: .oauth(deadline: timeout), endpoint: url)
            return (response.status, response.body)
        } catch {
            throw .transport(error.description)
        }
    }

    private static func endpointError(status: HTTPResponseStatus, bytes: [UInt8], secrets: [String]) -> TokenEndpointFailure {
        struct ErrorBody: Decodable {
            var error: String
            var error_description: String?
        }
        let parsed = try? JSONDecoder().decode(ErrorBody.self, from: Data(bytes))
        return .endpoint(
            status: Int(status.code),
            error: parsed?.error.redacting(secrets),
            description: parsed?.error_description?.redacting(secrets)
        )
    }

    /// - Parameter secrets: what the answer must not echo into an error, besides the client secret.
    private func post(
        _ form: FormParameters,
        grant: String,
        secrets: [String]
    ) async throws(TokenEndpointFailure)
        -> TokenResponse
    {
        let request = authenticatedRequest(url: tokenURL, form: form)
        let metadata: Logger.Metadata = ["token_url": "\(tokenURL)", "client_id": "\(clientID)", "grant_type": "\(grant)"]
        do throws(TokenEndpointFailure) {
            let response = try await send(request, secrets: secrets + [clientSecret])
            logger.info("token response", metadata: metadata.merging(["tokens": "\(response.report.summary)"]) { $1 })
            return response
        } catch {
            logger.notice("token request failed", metadata: metadata.merging(["reason": "\(error)"]) { $1 })
            throw error
        }
    }

    private func send(_ request: HTTPClientRequest, secrets: [String]) async throws(TokenEndpointFailure) -> TokenResponse {
        let (status, bytes) = try await execute(request, url: tokenURL)
        guard status == .ok else { throw Self.endpointError(status: status, bytes: bytes, secrets: secrets) }
        guard let response = TokenResponse(json: bytes) else {
            throw .malformedResponse("HTTP 200 without a JSON body holding access_token and token_type")
        }
        return response
    }
}
