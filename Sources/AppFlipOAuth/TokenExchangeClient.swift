import AppFlipCore
public import AsyncHTTPClient
import FoundationEssentials
public import Logging
import NIOCore
import NIOHTTP1

/// Step 4, Google's side: exchanges a code at the partner's token endpoint, server to server, with the
/// identical redirect_uri and the client's credentials; and refreshes.
public struct TokenExchangeClient: Sendable {
    /// How the client authenticates at the token endpoint (RFC 6749 §2.3.1).
    public enum Authentication: Sendable, Hashable {
        /// `client_id` and `client_secret` in the form body, as Google sends them.
        case clientSecretPost
        /// `Authorization: Basic`.
        case basic
    }

    /// The partner's token endpoint.
    public var tokenURL: String
    /// The partner client id Google was given.
    public var clientID: String
    /// The client's secret; only its fingerprint is logged.
    public var clientSecret: String
    /// Where the credentials go: form body (Google's way) or Basic header.
    public var authentication: Authentication
    /// How long one request may take, connection included.
    public var timeout: Duration
    private let httpClient: HTTPClient
    private let logger: Logger

    /// Creates a client; `httpClient` must not follow redirects, and its owner shuts it down.
    public init(
        tokenURL: String,
        clientID: String,
        clientSecret: String,
        authentication: Authentication = .clientSecretPost,
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
    public func exchange(code: String, redirectURI: String, codeVerifier: String? = nil) async throws(TokenExchangeError)
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
    public func refresh(refreshToken: String, scopes: [String]? = nil) async throws(TokenExchangeError) -> TokenResponse {
        var form = FormParameters()
        form.append("grant_type", "refresh_token")
        form.append("refresh_token", refreshToken)
        if let scopes { form.append("scope", scopes.joined(separator: " ")) }
        return try await post(form, grant: "refresh_token", secrets: [refreshToken])
    }

    /// - Parameter secrets: what the answer must not echo into an error, besides the client secret.
    private func post(_ form: FormParameters, grant: String, secrets: [String]) async throws(TokenExchangeError)
        -> TokenResponse
    {
        var form = form
        var request = HTTPClientRequest(url: tokenURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        switch authentication {
        case .clientSecretPost:
            form.append("client_id", clientID)
            form.append("client_secret", clientSecret)
        case .basic:
            let pair = PercentEncoding.encodeStrictly(clientID) + ":" + PercentEncoding.encodeStrictly(clientSecret)
            request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        }
        request.body = .bytes(ByteBuffer(string: form.encoded))

        let metadata: Logger.Metadata = ["token_url": "\(tokenURL)", "client_id": "\(clientID)", "grant_type": "\(grant)"]
        do throws(TokenExchangeError) {
            let response = try await send(request, secrets: secrets + [clientSecret])
            logger.info("token response", metadata: metadata.merging(["tokens": "\(response.report.summary)"]) { $1 })
            return response
        } catch {
            logger.notice("token request failed", metadata: metadata.merging(["reason": "\(error)"]) { $1 })
            throw error
        }
    }

    private func send(_ request: HTTPClientRequest, secrets: [String]) async throws(TokenExchangeError) -> TokenResponse {
        let status: HTTPResponseStatus
        let body: ByteBuffer
        do {
            let response = try await httpClient.execute(request, timeout: TimeAmount(timeout))
            status = response.status
            body = try await response.body.collect(upTo: 1 << 20)
        } catch {
            throw .transport(TransportFailure.describe(error, endpoint: tokenURL))
        }
        let bytes = Array(buffer: body)
        guard status == .ok else {
            struct ErrorBody: Decodable {
                var error: String
                var error_description: String?
            }
            let parsed = try? JSONDecoder().decode(ErrorBody.self, from: Data(bytes))
            throw .endpoint(
                status: Int(status.code), error: parsed?.error.redacting(secrets),
                description: parsed?.error_description?.redacting(secrets)
            )
        }
        guard let response = TokenResponse(json: bytes) else {
            throw .malformedResponse("HTTP 200 without a JSON body holding access_token and token_type")
        }
        return response
    }
}
