import AppFlipAudit
import AppFlipCore
import FoundationEssentials
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A small OAuth 2.0 authorization server for the audit's tests: two clients allowed all 12 App Flip redirect
/// URIs, with grace rotation of refresh tokens and replay revocation, sign-in sessions (`session=…`
/// cookies) that `POST /signout` ends, correct in every way but one ``OAuthBug`` (or none). Codes and tokens
/// are random, bound to their client, and kept in memory.
final class BrokenOAuthServer: Sendable {
    static let clientID = "broken-client"
    static let clientSecret = "broken-secret-0123456789"
    static let secondClientID = "broken-second-client"
    static let secondClientSecret = "broken-second-secret-0123456789"
    /// How long a rotated-out refresh token keeps working under `shortGrace`.
    static let shortGrace = Duration.milliseconds(100)

    let bug: OAuthBug?
    /// The refresh chains also issue refresh tokens (`false`: a refresh keeps the token, which RFC 6749 §6 allows).
    let rotates: Bool
    /// The one client's id.
    let client: String
    /// The access tokens' `expires_in`, in seconds.
    let accessTokenLifetime: Int
    private let state = NIOLockedValueBox(Store())
    /// How long each authorization request is held, so that requests in flight overlap and are counted.
    let authorizeDelay: Duration?
    private let inFlight = NIOLockedValueBox((now: 0, most: 0))

    /// The most authorization requests that were in flight at once.
    var mostAuthorizeRequestsAtOnce: Int { inFlight.withLockedValue { $0.most } }

    private struct Grant {
        var redirectURI: String
        var clientID: String
        var session: String?
        var used = false
        var family: Int?
    }

    /// What a token request comes to inside the lock: tokens for a family, or an error answer.
    private enum Step {
        case issue(family: Int, refreshToken: String?)
        case answer(Response)
    }

    private struct Store {
        var codes: [String: Grant] = [:]
        var accessTokens: [String: Int] = [:]
        /// Refresh token → family; `previous` refresh tokens stay valid until their successor is used.
        var refreshTokens: [String: Int] = [:]
        var successorOf: [String: String] = [:]
        var revoked: Set<Int> = []
        var nextFamily = 0
        var firstCode: String?
        /// Each family's client and the session that linked it.
        var familyClient: [Int: String] = [:]
        var familySession: [Int: String] = [:]
        /// How many refreshes each family has had.
        var refreshes: [Int: Int] = [:]
        /// When each refresh token was rotated out.
        var rotatedAt: [String: ContinuousClock.Instant] = [:]
        var endedSessions: Set<String> = []
        /// When each family's newest access token was issued.
        var accessIssuedAt: [Int: ContinuousClock.Instant] = [:]
    }

    /// Every code, access token and refresh token issued so far.
    var issued: [String] {
        state.withLockedValue { Array($0.codes.keys) + Array($0.accessTokens.keys) + Array($0.refreshTokens.keys) + Array($0.successorOf.values) }
    }

    /// The redirect URIs the client may use besides the 12 App Flip URLs (an Android REDIRECT_URI).
    let extraRedirectURIs: [String]

    init(
        bug: OAuthBug?,
        rotates: Bool = true,
        clientID: String = BrokenOAuthServer.clientID,
        extraRedirectURIs: [String] = [],
        authorizeDelay: Duration? = nil,
        accessTokenLifetime: Int = 3600
    ) {
        self.bug = bug
        self.extraRedirectURIs = extraRedirectURIs
        self.authorizeDelay = authorizeDelay
        self.rotates = rotates
        self.client = clientID
        self.accessTokenLifetime = accessTokenLifetime
    }

    /// Runs the server around `body`, which gets its base URL.
    func run<Result: Sendable>(_ body: @Sendable (String) async throws -> Result) async throws -> Result {
        let router = Router()
        router.get("authorize") { request, _ in
            guard let delay = self.authorizeDelay else { return self.authorize(request) }
            self.inFlight.withLockedValue { count in
                count.now += 1
                count.most = max(count.most, count.now)
            }
            try? await Task.sleep(for: delay)
            self.inFlight.withLockedValue { $0.now -= 1 }
            return self.authorize(request)
        }
        router.post("token") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 16)
            return await self.token(form: Self.form(String(buffer: body)), authorization: request.headers[.authorization])
        }
        router.get("resource") { request, _ in self.resource(request.headers[.authorization]) }
        router.post("revoke") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 16)
            return self.revoke(form: Self.form(String(buffer: body)), authorization: request.headers[.authorization])
        }
        router.post("signout") { request, _ in self.signOut(request.headers[.cookie]) }
        return try await TestHTTPServer.run(router, body)
    }

    private static func form(_ encoded: some StringProtocol) -> [String: String] {
        var fields: [String: String] = [:]
        for field in encoded.split(separator: "&") {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.formDecode(parts[0]) else { continue }
            fields[name] = parts.count > 1 ? PercentEncoding.formDecode(parts[1]) : ""
        }
        return fields
    }

    private static func random() -> String {
        (0..<3).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined()
    }

    // MARK: /authorize

    private func authorize(_ request: Request) -> Response {
        let query = Self.form(request.uri.query ?? "")
        let session = request.headers[.cookie]
        if bug == .signInRefused || state.withLockedValue({ session.map($0.endedSessions.contains) ?? false }) {
            return Response(status: .found, headers: [.location: "/accounts/login/?next=/authorize"])
        }
        if bug == .authorizeDown { return Self.text(.serviceUnavailable, "down for maintenance") }
        let allowed = AppFlipRedirectURI.all.map(\.string) + extraRedirectURIs
        let knownClient =
            query["client_id"] == client || (bug == .authorizeClientAnyCase && query["client_id"]?.lowercased() == client)
            || (bug == .clientIDFolded && query["client_id"].map(Self.foldingFullwidth) == client)
        let ownErrorPage = Response(status: .found, headers: [.location: "/oauth-error?error=invalid_request"])
        guard knownClient || bug == .authorizeAnyClient else {
            return bug == .refusalsToItsOwnErrorPage ? ownErrorPage : Self.text(.badRequest, "unknown client")
        }
        guard let redirectURI = query["redirect_uri"] else { return Self.text(.badRequest, "no redirect_uri") }
        // Every occurrence, in order: `form` keeps the last, the polluted server checks the first.
        let occurrences = (request.uri.query ?? "").split(separator: "&").compactMap { field -> String? in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard PercentEncoding.formDecode(parts[0]) == "redirect_uri", parts.count > 1 else { return nil }
            return PercentEncoding.formDecode(parts[1])
        }
        let checked = bug == .authorizeChecksFirstRedirectURI ? occurrences.first ?? redirectURI : redirectURI
        let accepted: Bool =
            switch bug {
            case .authorizeLowerCasesHost: allowed.contains(Self.lowerCasingHost(redirectURI))
            case .authorizePrefixMatch: allowed.contains { redirectURI.hasPrefix($0) }
            case .redirectAnyHostUnderParent: allowed.contains(checked) || Self.underSameParent(checked, allowed)
            default: allowed.contains(checked)
            }
        guard accepted else { return bug == .refusalsToItsOwnErrorPage ? ownErrorPage : Self.text(.badRequest, "redirect_uri not registered") }
        if bug == .intermediateRedirect && query["consented"] == nil {
            return Response(status: .found, headers: [.location: "/authorize?" + (request.uri.query ?? "") + "&consented=1"])
        }
        if bug == .scopeListRefused, query["scope"]?.contains(" ") == true {
            let state = PercentEncoding.encodeStrictly(query["state"] ?? "")
            return Response(status: .found, headers: [.location: Self.appending("error=invalid_scope&state=\(state)", to: redirectURI)])
        }
        if bug == .requiresPKCE && query["code_challenge"] == nil {
            let state = PercentEncoding.encodeStrictly(query["state"] ?? "")
            return Response(
                status: .found,
                headers: [
                    .location: Self.appending("error=invalid_request&error_description=code_challenge+required&state=\(state)", to: redirectURI)
                ]
            )
        }
        let code = state.withLockedValue { store in
            // `sameCode`: the first code is handed out again for every request, whatever became of it.
            if bug == .sameCode, let first = store.firstCode { return first }
            let code = Self.random()
            store.codes[code] = Grant(redirectURI: redirectURI, clientID: client, session: session)
            store.firstCode = store.firstCode ?? code
            return code
        }
        var stateValue = query["state"] ?? ""
        if bug == .truncatesLongState && stateValue.utf8.count > 1024 { stateValue = String(decoding: stateValue.utf8.prefix(1024), as: UTF8.self) }
        let echoed = bug == .authorizeStateUnencoded ? stateValue : PercentEncoding.encodeStrictly(stateValue)
        return delivering("code=\(code)&state=\(echoed)", to: redirectURI)
    }

    /// The redirect that carries a response to `redirectURI`, as the bug writes it.
    private func delivering(_ parameters: String, to redirectURI: String) -> Response {
        let html = { (body: String) in
            Response(
                status: .ok,
                headers: [.contentType: "text/html"],
                body: .init(byteBuffer: ByteBuffer(string: "<html><body>\(body)</body></html>"))
            )
        }
        switch bug {
        case .codeInFragment:
            return Response(status: .found, headers: [.location: redirectURI + "#" + parameters])
        case .tokenInFragment:
            return Response(status: .found, headers: [.location: Self.appending(parameters, to: redirectURI) + "#access_token=\(Self.random())"])
        case .repeatsState:
            let state = parameters.split(separator: "&").first { $0.hasPrefix("state=") } ?? ""
            return Response(status: .found, headers: [.location: Self.appending(parameters + "&" + state, to: redirectURI)])
        case .codePostedByPage:
            let fields = parameters.split(separator: "&").map { field in
                let parts = field.split(separator: "=", maxSplits: 1)
                return "<input type=\"hidden\" name=\"\(parts[0])\" value=\"\(PercentEncoding.formDecode(parts.count > 1 ? parts[1] : "") ?? "")\">"
            }
            return html("<form method=\"post\" action=\"\(redirectURI)\">\(fields.joined())</form><script>document.forms[0].submit()</script>")
        case .forwardingPage:
            let target = Self.appending(parameters, to: redirectURI).replacing("&", with: "&amp;")
            return html("<meta http-equiv=\"refresh\" content=\"0;url=\(target)\"><a href=\"\(target)\">continue</a>")
        default:
            return Response(status: .found, headers: [.location: Self.appending(parameters, to: redirectURI)])
        }
    }

    /// `uri` with `parameters` added to its query, before its fragment (RFC 6749 §3.1.2: a query is kept).
    static func appending(_ parameters: String, to uri: String) -> String {
        let base = uri.prefix { $0 != "#" }
        return base + (base.contains("?") ? "&" : "?") + parameters + uri.dropFirst(base.count)
    }

    private static func lowerCasingHost(_ uri: String) -> String {
        guard let url = try? RawURL(uri) else { return uri }
        return uri.replacing(url.host, with: url.host.lowercased())
    }

    // MARK: /token

    private func token(form: [String: String], authorization: String?) async -> Response {
        let caller: String
        switch authenticate(
            form: form,
            authorization: authorization,
            ignoringSecret: bug == .refreshIgnoresSecret && form["grant_type"] == "refresh_token"
        ) {
        case .refused(let refusal): return refusal
        case .client(let id): caller = id
        }
        switch form["grant_type"] {
        case "authorization_code":
            return await exchange(code: form["code"] ?? "", redirectURI: form["redirect_uri"] ?? "", client: caller)
        case "refresh_token":
            return refresh(form["refresh_token"] ?? "", client: caller)
        default:
            return error(.badRequest, "unsupported_grant_type")
        }
    }

    /// The client authentication of /token and /revoke (RFC 6749 §2.3.1): the client's id when it is known.
    private enum Authenticated {
        case client(String)
        case refused(Response)
    }

    private func authenticate(form: [String: String], authorization: String?, ignoringSecret: Bool = false) -> Authenticated {
        var clientID = bug == .basicOnly ? nil : form["client_id"]
        var secret = bug == .basicOnly ? nil : form["client_secret"]
        let basic = authorization?.hasPrefix("Basic ") == true
        if let authorization, basic, bug != .noBasic,
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        {
            clientID = PercentEncoding.formDecode(decoded[..<colon])
            secret = PercentEncoding.formDecode(decoded[decoded.index(after: colon)...])
        }
        let secrets = [client: Self.clientSecret, Self.secondClientID: Self.secondClientSecret]
        let knownClient = secrets[clientID ?? ""] != nil || (bug == .acceptsUnknownClient && clientID != nil)
        let ignores = bug == .ignoresSecret || ignoringSecret
        // An unknown client (`acceptsUnknownClient`) is taken for Google's, with Google's secret.
        guard knownClient, let clientID,
            secret == (secrets[clientID] ?? Self.clientSecret) || ignores || (bug == .acceptsMissingSecret && secret == nil)
        else {
            var refusal = error(.unauthorized, "invalid_client")
            // RFC 9110 §15.5.2: every 401 carries a challenge; RFC 6749 §5.2: Basic for a failed Basic attempt.
            switch bug {
            case .noBasicChallenge where basic, .noChallengeForBody where !basic: break
            case .malformedChallenge: refusal.headers[.wwwAuthenticate] = "Basic error=invalid_client, error_description=Invalid client secret"
            default: refusal.headers[.wwwAuthenticate] = "Basic realm=\"broken\""
            }
            return .refused(refusal)
        }
        return .client(secrets[clientID] == nil ? client : clientID)
    }

    // MARK: /revoke (RFC 7009)

    private func revoke(form: [String: String], authorization: String?) -> Response {
        let caller: String
        switch authenticate(form: form, authorization: authorization, ignoringSecret: bug == .revokeIgnoresSecret) {
        case .refused(let refusal): return refusal
        case .client(let id): caller = id
        }
        let token = form["token"] ?? ""
        if bug == .revokeRefusedWithoutError, state.withLockedValue({ $0.refreshTokens[token] != nil }) {
            return Self.text(.forbidden, "revocation is not allowed")
        }
        // `revokeNeedsHint`: a refresh token is looked for only when the hint says so.
        let findsRefresh = bug != .revokeNeedsHint || form["token_type_hint"] == "refresh_token"
        let outcome: Response? = state.withLockedValue { store in
            if findsRefresh, let family = store.refreshTokens[token] {
                // RFC 7009 §2.1: another client's token is refused, unless the bug lets it through.
                guard store.familyClient[family] == caller || bug == .revokesOtherClientsTokens else { return error(.badRequest, "invalid_grant") }
                if bug != .revokeKeepsRefresh { store.revoked.insert(family) }
                return nil
            }
            if let family = store.accessTokens[token] {
                guard store.familyClient[family] == caller else { return error(.badRequest, "invalid_grant") }
                store.accessTokens[token] = nil
                return nil
            }
            return bug == .revokeUnknownRefused ? error(.badRequest, "invalid_request") : nil
        }
        return outcome ?? Response(status: .ok, headers: [.cacheControl: "no-store"])
    }

    // MARK: /signout

    /// Ends the session of the request's cookie; under `sessionBoundRefresh` the grants it linked die with it.
    private func signOut(_ cookie: String?) -> Response {
        guard let cookie, bug != .signOutIgnored else { return Response(status: .noContent) }
        state.withLockedValue { store in
            store.endedSessions.insert(cookie)
            if bug == .sessionBoundRefresh {
                for (family, session) in store.familySession where session == cookie { store.revoked.insert(family) }
            }
        }
        return Response(status: .noContent)
    }

    private func exchange(code: String, redirectURI: String, client caller: String) async -> Response {
        // `codePrefix`: a code one character short is taken for the code it starts.
        let code =
            bug == .codePrefix
            ? state.withLockedValue { store in store.codes.keys.first { $0.hasPrefix(code) && $0.count == code.count + 1 } } ?? code : code
        if bug == .racyCode {
            // Checks that the code is unused, then takes its time before marking it used: a race.
            guard let grant = state.withLockedValue({ $0.codes[code] }), !grant.used else { return error(.badRequest, "invalid_grant") }
            try? await Task.sleep(for: .milliseconds(100))
        }
        let step: Step = state.withLockedValue { store in
            guard var grant = store.codes[code] else { return .answer(error(.badRequest, "invalid_grant")) }
            guard grant.clientID == caller || bug == .codeAnyClient else { return .answer(error(.badRequest, "invalid_grant")) }
            if grant.used && bug != .reusableCode && bug != .racyCode {
                if let family = grant.family, bug != .replayKeepsTokens { store.revoked.insert(family) }
                return .answer(error(.badRequest, "invalid_grant"))
            }
            guard grant.redirectURI == redirectURI || bug == .unboundRedirect else { return .answer(error(.badRequest, "invalid_grant")) }
            let family = store.nextFamily
            store.nextFamily += 1
            grant.used = true
            grant.family = family
            store.codes[code] = grant
            store.familyClient[family] = caller
            store.familySession[family] = grant.session
            return .issue(family: family, refreshToken: bug == .noRefreshToken ? nil : Self.random())
        }
        switch step {
        case .issue(let family, let refreshToken): return issue(family: family, refreshToken: refreshToken, access: nil)
        case .answer(let response): return response
        }
    }

    private func refresh(_ presented: String, client caller: String) -> Response {
        let step: Step = state.withLockedValue { store in
            // `refreshAnyCase`: the refresh token is looked up without case, as a case-insensitive collation does.
            let token = bug == .refreshAnyCase ? store.refreshTokens.keys.first { $0.lowercased() == presented.lowercased() } ?? presented : presented
            guard let family = store.refreshTokens[token], !store.revoked.contains(family) else {
                return .answer(error(.badRequest, bug == .bogusRefreshInvalidRequest ? "invalid_request" : "invalid_grant"))
            }
            guard store.familyClient[family] == caller || bug == .refreshAnyClient else { return .answer(error(.badRequest, "invalid_grant")) }
            if bug == .refreshNeedsLiveAccessToken, let issued = store.accessIssuedAt[family],
                ContinuousClock.now - issued > .seconds(accessTokenLifetime)
            {
                return .answer(error(.badRequest, "invalid_grant"))
            }
            if bug == .shortGrace, let rotated = store.rotatedAt[token], ContinuousClock.now - rotated > Self.shortGrace {
                return .answer(error(.badRequest, "invalid_grant"))
            }
            store.refreshes[family, default: 0] += 1
            if bug == .chainOfFour && store.refreshes[family, default: 0] > 4 { return .answer(error(.badRequest, "invalid_grant")) }
            if bug == .retiresWithoutSuccessor {
                store.refreshTokens[token] = nil
                return .issue(family: family, refreshToken: nil)
            }
            guard rotates else { return .issue(family: family, refreshToken: nil) }
            // Using a token retires the one it replaced; the token itself stays valid until its successor is used.
            if let previous = store.successorOf.first(where: { $0.value == token })?.key { store.refreshTokens[previous] = nil }
            if bug == .strictRotation { store.refreshTokens[token] = nil }
            let next = Self.random()
            store.successorOf[token] = next
            store.rotatedAt[token] = store.rotatedAt[token] ?? .now
            return .issue(family: family, refreshToken: next)
        }
        switch step {
        case .issue(let family, let next):
            let access = bug == .sameAccessOnRefresh ? state.withLockedValue { store in store.accessTokens.first { $0.value == family }?.key } : nil
            return issue(family: family, refreshToken: next, access: access, refreshing: true)
        case .answer(let response):
            return response
        }
    }

    /// `text` with every fullwidth character (U+FF01–U+FF5E) as its ASCII form, as NFKC folds it.
    static func foldingFullwidth(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { (0xFF01...0xFF5E).contains($0.value) ? Unicode.Scalar($0.value - 0xFEE0)! : $0 }))
    }

    /// Whether `uri` is a registered one with its host swapped for another under the same parent domain.
    static func underSameParent(_ uri: String, _ allowed: [String]) -> Bool {
        guard let url = try? RawURL(uri) else { return false }
        let parent = url.host.split(separator: ".").dropFirst().joined(separator: ".")
        return allowed.contains { registered in
            guard let known = try? RawURL(registered), known.host.split(separator: ".").dropFirst().joined(separator: ".") == parent else {
                return false
            }
            return uri == registered.replacing(known.host, with: url.host)
        }
    }

    private func issue(family: Int, refreshToken: String?, access: String?, refreshing: Bool = false) -> Response {
        let accessToken = access ?? (bug == .jwtAccessToken ? "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.\(Self.random())" : Self.random())
        state.withLockedValue { store in
            store.accessTokens[accessToken] = family
            store.accessIssuedAt[family] = .now
            if let refreshToken { store.refreshTokens[refreshToken] = family }
        }
        var members = ["\"access_token\":\"\(accessToken)\"", "\"token_type\":\"\(bug == .macTokenType ? "mac" : "bearer")\""]
        let lifetime = bug == .expiresInString ? "\"\(accessTokenLifetime)\"" : "\(accessTokenLifetime)"
        if bug != .noExpiresIn { members.append("\"expires_in\":\(lifetime)") }
        if let refreshToken { members.append("\"refresh_token\":\"\(refreshToken)\"") }
        var headers: HTTPFields = [.contentType: bug == .textPlainTokens ? "text/plain" : "application/json;charset=UTF-8"]
        if bug != .noCacheControl && !(bug == .refreshWithoutNoStore && refreshing) { headers[.cacheControl] = "no-store" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "{" + members.joined(separator: ",") + "}")))
    }

    private func resource(_ authorization: String?) -> Response {
        let valid = state.withLockedValue { store in
            guard let token = authorization?.split(separator: " ").last.map(String.init), let family = store.accessTokens[token] else { return false }
            return !store.revoked.contains(family)
        }
        if valid && bug != .resourceRefuses { return Self.text(.ok, "{}") }
        if bug == .resourceForbidden { return Self.text(.forbidden, "no") }
        var refusal = Self.text(.unauthorized, "no")
        refusal.headers[.wwwAuthenticate] =
            authorization == nil || bug == .resourceNoErrorCode ? "Bearer realm=\"broken\"" : "Bearer error=\"invalid_token\""
        return refusal
    }

    private func error(_ status: HTTPResponse.Status, _ code: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: bug == .errorsAsHTML ? "text/html" : "application/json", .cacheControl: "no-store"],
            body: .init(
                byteBuffer: ByteBuffer(
                    string:
                        "{\"error\":\"\(code)\",\"\(bug == .descriptionField ? "description" : "error_description")\":\"refused by the broken server\"}"
                )
            )
        )
    }

    private static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
