import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// The requests the token-endpoint checks send, as Google's server sends them: form bodies to the token
/// and revocation endpoints with the client authenticated one way or the other, and `Authorization: Bearer`
/// to the resource. Answers come back raw, never through a client that would smooth them over, and every
/// exchange is recorded for the judges.
extension TokenEndpointAudit {
    /// Who the client claims to be and how it says so; no method: the request's fields say it all.
    struct Client {
        var id: String
        var secret: String
        var method: ClientAuthMethod?
        /// Whether Google's server could send the request: false for a method the server was not shown to accept.
        var googleSends = true
    }

    /// The target's client, authenticated with `method`.
    func client(_ method: ClientAuthMethod) -> Client {
        Client(id: target.clientID, secret: target.clientSecret, method: method)
    }

    /// A fresh code for `check`'s own use. Nil when none could be had: the source said why, and `check` is
    /// skipped for it (its own need `code`), naming the rule the source broke or the cause outside the rules.
    func freshCode(_ codes: any AuditCodeSource, for check: CheckSpec) async throws(AuditUnreachable) -> String? {
        let code: String
        do {
            code = try await codes.freshCode(redirectURI: redirectURI)
        } catch let error as AuditUnreachable {
            throw error
        } catch let shortfall as CodeShortfall {
            context.ledger.set(.code, shortfall.state, for: check)
            return nil
        } catch {
            throw AuditUnreachable("no authorization code for the token-endpoint checks: \(error)")
        }
        let source = (codes as? any CodeOrigin)?.codeCheck ?? .tokenCodeSingleUse
        let request = "a fresh code for \(check.id)"
        if let earlier = context.codes.register(code, by: request) {
            context.ledger.record(source, .fail("\(request) is the code already handed out for \(earlier): each request gets a new code"))
            context.ledger.set(.code, .brokeRule(source, "its fresh code was one already handed out (\(source.id))"), for: check)
            return nil
        }
        return code
    }

    func exchange(
        _ code: String,
        redirectURI: AppFlipRedirectURI? = nil,
        _ client: Client,
        for purpose: String
    ) async throws(AuditUnreachable) -> TokenAnswer {
        try await post(
            target.url,
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", (redirectURI ?? self.redirectURI).string)],
            client,
            grant: .authorizationCode,
            for: purpose
        )
    }

    func refresh(_ refreshToken: String, _ client: Client, for purpose: String) async throws(AuditUnreachable) -> TokenAnswer {
        try await post(target.url, [("grant_type", "refresh_token"), ("refresh_token", refreshToken)], client, grant: .refreshToken, for: purpose)
    }

    /// An RFC 7009 revocation request for `token` with `hint` as `token_type_hint` (Google sends
    /// `refresh_token` on unlinking), or none.
    func revoke(_ token: String, hint: String?, at url: String, _ client: Client, for purpose: String) async throws(AuditUnreachable) -> TokenAnswer {
        try await post(url, [("token", token)] + (hint.map { [("token_type_hint", $0)] } ?? []), client, grant: .revocation, for: purpose)
    }

    func post(
        _ url: String,
        _ fields: [(name: String, value: String)],
        _ client: Client,
        grant: ExchangeRecorder.Grant,
        for purpose: String
    ) async throws(AuditUnreachable) -> TokenAnswer {
        var fields = fields
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        switch client.method {
        case .post?:
            fields += [("client_id", client.id), ("client_secret", client.secret)]
        case .basic?:
            let pair = PercentEncoding.encodeStrictly(client.id) + ":" + PercentEncoding.encodeStrictly(client.secret)
            request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        case nil:
            // No authentication at all: the client names itself, as a public client would.
            if !client.id.isEmpty { fields.append(("client_id", client.id)) }
        }
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(fields)))
        let secrets = [client.secret, target.clientSecret] + fields.filter { SecretNames.isSecret(name: $0.name) }.map(\.value)
        let kind: RecordedExchange.Endpoint = url == target.url ? .token : .revocation
        let endpoint = kind == .token ? "the token endpoint \(url)" : "the revocation endpoint \(url)"
        let sending = ExchangeRecorder.Sending(
            endpoint: kind,
            purpose: purpose,
            method: "POST",
            url: url,
            headers: request.headers,
            form: fields,
            googleSends: client.googleSends,
            grant: grant,
            clientAuth: client.method,
            secrets: secrets
        )
        let httpClient = httpClient
        let bounds = bounds
        let send = { try await httpClient.exchange(request, bounds: bounds, endpoint: endpoint) }
        let outcome = try await context.exchanges.perform(sending, exchange: send) { id, response in
            let answer = TokenAnswer(
                exchange: id,
                status: Int(response.status.code),
                contentType: response.headers.first(name: "Content-Type"),
                cacheControl: response.headers.first(name: "Cache-Control"),
                wwwAuthenticate: Self.challenges(response.headers),
                authentication: client.method?.name ?? "none",
                body: response.body,
                secretsSent: secrets
            )
            return (.token(answer), answer)
        }
        return outcome.value
    }

    /// Every `WWW-Authenticate` field of `headers`, as one list (RFC 9110 §5.3); nil when there is none.
    static func challenges(_ headers: HTTPHeaders) -> String? {
        let fields = headers["WWW-Authenticate"]
        return fields.isEmpty ? nil : fields.joined(separator: ", ")
    }

    /// `GET` of the resource with `accessToken` as a Bearer token, or with no `Authorization` at all.
    func resource(_ accessToken: String?, for purpose: String) async throws(AuditUnreachable) -> ResourceAnswer? {
        guard let resourceURL = target.resourceURL else { return nil }
        var request = HTTPClientRequest(url: resourceURL)
        if let accessToken { request.headers.add(name: "Authorization", value: "Bearer \(accessToken)") }
        let sending = ExchangeRecorder.Sending(endpoint: .resource, purpose: purpose, method: "GET", url: resourceURL, headers: request.headers)
        let httpClient = httpClient
        let bounds = bounds
        let send = { try await httpClient.exchange(request, bounds: bounds, endpoint: "the resource \(resourceURL)") }
        let outcome = try await context.exchanges.perform(sending, exchange: send) { id, response in
            let answer = ResourceAnswer(exchange: id, status: Int(response.status.code), wwwAuthenticate: Self.challenges(response.headers))
            return (.resource(answer), answer)
        }
        return outcome.value
    }

    /// A random string in a token's shape that no server issued.
    static func madeUpToken() -> String {
        Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max) })
    }

    static func redacted(_ name: String, _ secret: String) -> String {
        "\(name) \(Redaction.secret(secret))"
    }
}

/// What a protected resource answered: its status and challenge.
struct ResourceAnswer: Sendable, CustomStringConvertible {
    /// The exchange that brought it.
    var exchange: Int
    var status: Int
    var wwwAuthenticate: String?

    var opened: Bool { (200..<300).contains(status) }

    /// Whether one of the challenges is the Bearer scheme (RFC 6750 §3; schemes compare in any case).
    var challengesBearer: Bool { Challenge.names(wwwAuthenticate, scheme: "bearer") }

    /// The challenge's `error` attribute (RFC 6750 §3), unquoted; nil when it has none. Error codes hold
    /// neither a space nor a comma, so the header's words are enough; the syntax is `token.www-authenticate`'s.
    var errorCode: String? {
        let words = wwwAuthenticate?.split(whereSeparator: { $0 == " " || $0 == "," }) ?? []
        guard let attribute = words.first(where: { $0.lowercased().hasPrefix("error=") }) else { return nil }
        return String(attribute.dropFirst(6).filter { $0 != "\"" })
    }

    var description: String {
        if opened && wwwAuthenticate == nil { return "#\(exchange) HTTP \(status)" }
        return "#\(exchange) HTTP \(status)" + (wwwAuthenticate.map { ", WWW-Authenticate: \(String($0.prefix(120)))" } ?? ", no WWW-Authenticate")
    }
}

/// The auth schemes a `WWW-Authenticate` value names (RFC 9110 §11.6.1), read leniently: each challenge
/// starts with its scheme, after the start or a comma; a comma inside a quoted parameter value starts none.
/// Whether the value is well formed is ``ChallengeSyntax``'s, and `token.www-authenticate`'s to judge.
enum Challenge {
    static func names(_ header: String?, scheme: String) -> Bool {
        guard let header else { return false }
        var quoted = false
        var start = true
        var word = ""
        for character in header + "," {
            if character == "\"" { quoted.toggle() }
            if quoted { continue }
            if character == "," || character == " " || character == "=" {
                if start && !word.isEmpty {
                    if word.lowercased() == scheme && character != "=" { return true }
                    start = false
                }
                word = ""
                if character == "," { start = true }
                continue
            }
            if start { word.append(character) }
        }
        return false
    }
}
