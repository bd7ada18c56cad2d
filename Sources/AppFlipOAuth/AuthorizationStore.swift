import AppFlipConfiguration
import AppFlipCore
import AppFlipHTTPClient
import NIOConcurrencyHelpers

/// The embedded server's memory: authorization codes, and the tokens issued from each code as one family.
///
/// Codes are single-use: a second redemption is answered `invalid_grant` and revokes the whole family
/// (RFC 6749 §4.1.2, RFC 9700 §4.1.3 — if the first redeemer was an attacker, their tokens die too).
/// Refresh tokens rotate by the configured `RefreshTokenRotation`: `grace` keeps the previous refresh token
/// working until its successor is first used (or its grace time ends), `strict` retires it at once, `off`
/// returns the same one. Presenting a retired one is treated as theft and revokes the family (RFC 9700
/// §4.14.2). Revocation (RFC 7009) ends one access token, or a whole family for a refresh token.
/// Everything lives in memory behind one lock: restarting the server forgets every code and token. Memory
/// is bounded: expired codes and access tokens are swept, and beyond `maximumFamilies` the oldest token
/// family is revoked, so a daemon under a long load test does not grow without limit.
final class AuthorizationStore: Sendable {
    /// What the resource side knows about a valid access token.
    struct AccessGrant: Sendable, Hashable {
        var clientID: String
        var username: String
        var scopes: [String]
    }

    /// A successful token response, before encoding.
    struct IssuedTokens: Sendable, Hashable {
        var accessToken: String
        var refreshToken: String
        var expiresIn: Int
        var scopes: [String]
    }

    private struct PendingCode {
        var clientID: String
        var redirectURI: String
        var username: String
        var scopes: [String]
        var challenge: PKCEChallenge?
        var expiresAt: ContinuousClock.Instant
        /// Set once redeemed: the family to revoke on replay.
        var family: Int?
    }

    private struct AccessRecord {
        var grant: AccessGrant
        var family: Int
        var expiresAt: ContinuousClock.Instant
    }

    private struct Family {
        var grant: AccessGrant
        var accessTokens: Set<Exact> = []
        var refreshToken: String
        /// The refresh token rotated away last, still accepted under `grace` until `refreshToken` is first
        /// used or `previousUntil` passes.
        var previousRefreshToken: String?
        var previousUntil: ContinuousClock.Instant?
        var retiredRefreshTokens: Set<String> = []
    }

    /// What `revoke(token:hint:clientID:)` found.
    enum Revocation: Sendable, Hashable {
        /// Unknown, expired or already revoked: nothing to do (RFC 7009 §2.2 answers 200).
        case unknown
        case accessToken
        /// A refresh token: its family (every access and refresh token of the grant) is revoked.
        case refreshToken
        /// The token belongs to another client; nothing was revoked.
        case otherClient
    }

    private struct State {
        var codes: [Exact: PendingCode] = [:]
        var accessTokens: [Exact: AccessRecord] = [:]
        /// Current and retired refresh tokens, both pointing at their family.
        var refreshTokens: [Exact: Int] = [:]
        var families: [Int: Family] = [:]
        var nextFamily = 0
        /// Every family below this id has been evicted or never existed.
        var oldestFamily = 0
        var nextSweep: ContinuousClock.Instant
    }

    private let clock: any ExpiryClock
    private let random: any RandomSource
    private let codeLifetime: Duration
    private let accessTokenLifetime: Duration
    private let rotation: RefreshTokenRotation
    /// Under `grace`: how long after a rotation the previous refresh token works at most; nil for no limit.
    private let graceTime: Duration?
    /// Refresh tokens do not expire by time; this caps how many grants stay alive.
    private let maximumFamilies: Int
    private let state: NIOLockedValueBox<State>

    init(
        clock: any ExpiryClock,
        random: any RandomSource,
        codeLifetime: Duration,
        accessTokenLifetime: Duration,
        rotation: RefreshTokenRotation = .grace,
        graceTime: Duration? = nil,
        maximumFamilies: Int = 100_000
    ) {
        self.rotation = rotation
        self.graceTime = graceTime
        self.maximumFamilies = maximumFamilies
        self.clock = clock
        self.random = random
        self.codeLifetime = codeLifetime
        self.accessTokenLifetime = accessTokenLifetime
        self.state = NIOLockedValueBox(State(nextSweep: clock.now + codeLifetime))
    }

    /// Mints a code bound to everything /token must see again.
    func issueCode(
        clientID: String,
        redirectURI: String,
        username: String,
        scopes: [String],
        challenge: PKCEChallenge?
    ) -> String {
        let code = random.opaqueToken()
        let now = clock.now
        let pending = PendingCode(
            clientID: clientID,
            redirectURI: redirectURI,
            username: username,
            scopes: scopes,
            challenge: challenge,
            expiresAt: now + codeLifetime
        )
        state.withLockedValue { state in
            sweep(&state, now: now)
            state.codes[Exact(code)] = pending
        }
        return code
    }

    /// The `authorization_code` grant (RFC 6749 §4.1.3) for an already authenticated client.
    func redeem(
        code: String,
        clientID: String,
        redirectURI: String?,
        verifier: String?
    ) throws(TokenEndpointError)
        -> IssuedTokens
    {
        let now = clock.now
        let result: Result<IssuedTokens, TokenEndpointError> = state.withLockedValue { state in
            guard var pending = state.codes[Exact(code)] else {
                return .failure(TokenEndpointError(.invalidGrant, "the authorization code is unknown"))
            }
            guard Exact(pending.clientID) == Exact(clientID) else {
                return .failure(TokenEndpointError(.invalidGrant, "the authorization code was issued to another client"))
            }
            if let family = pending.family {
                revoke(family: family, in: &state)
                return .failure(
                    TokenEndpointError(
                        .invalidGrant,
                        "the authorization code was already used; the tokens issued from it are revoked"
                    )
                )
            }
            guard pending.expiresAt > now else {
                return .failure(TokenEndpointError(.invalidGrant, "the authorization code has expired"))
            }
            guard let redirectURI else {
                return .failure(TokenEndpointError(.invalidRequest, "redirect_uri is missing"))
            }
            guard Exact(redirectURI) == Exact(pending.redirectURI) else {
                return .failure(
                    TokenEndpointError(.invalidGrant, "redirect_uri is not identical to the authorization request's")
                )
            }
            switch (pending.challenge, verifier) {
            case (nil, nil):
                break
            case (nil, .some):
                return .failure(
                    TokenEndpointError(.invalidGrant, "code_verifier was sent but the authorization request had no code_challenge")
                )
            case (.some, nil):
                return .failure(TokenEndpointError(.invalidGrant, "code_verifier is required: a code_challenge was sent"))
            case (.some(let challenge), .some(let verifier)):
                guard challenge.isSatisfied(by: verifier) else {
                    return .failure(TokenEndpointError(.invalidGrant, "code_verifier does not match the code_challenge"))
                }
            }
            let grant = AccessGrant(clientID: clientID, username: pending.username, scopes: pending.scopes)
            let family = state.nextFamily
            state.nextFamily += 1
            let refreshToken = random.opaqueToken()
            state.families[family] = Family(grant: grant, refreshToken: refreshToken)
            while state.families.count > maximumFamilies {
                revoke(family: state.oldestFamily, in: &state)
                state.oldestFamily += 1
            }
            state.refreshTokens[Exact(refreshToken)] = family
            pending.family = family
            state.codes[Exact(code)] = pending
            let accessToken = issueAccessToken(family: family, grant: grant, now: now, in: &state)
            return .success(
                IssuedTokens(
                    accessToken: accessToken,
                    refreshToken: refreshToken,
                    expiresIn: expiresIn,
                    scopes: grant.scopes
                )
            )
        }
        return try result.get()
    }

    /// The `refresh_token` grant (RFC 6749 §6), rotating the refresh token. `scopes`, when given, must be a
    /// subset of the original grant.
    func refresh(refreshToken: String, clientID: String, scopes: [String]?) throws(TokenEndpointError) -> IssuedTokens {
        let now = clock.now
        let result: Result<IssuedTokens, TokenEndpointError> = state.withLockedValue { state in
            guard let familyID = state.refreshTokens[Exact(refreshToken)], var family = state.families[familyID] else {
                return .failure(TokenEndpointError(.invalidGrant, "the refresh token is unknown or revoked"))
            }
            guard Exact(family.grant.clientID) == Exact(clientID) else {
                return .failure(TokenEndpointError(.invalidGrant, "the refresh token was issued to another client"))
            }
            let presentedPrevious: Bool
            if Exact(family.refreshToken) == Exact(refreshToken) {
                presentedPrevious = false
            } else if family.previousRefreshToken.map(Exact.init) == Exact(refreshToken), family.previousUntil.map({ now < $0 }) ?? true {
                presentedPrevious = true
            } else {
                revoke(family: familyID, in: &state)
                return .failure(
                    TokenEndpointError(.invalidGrant, "the refresh token was already rotated; its token family is revoked")
                )
            }
            var grant = family.grant
            if let scopes {
                guard scopes.allSatisfy(family.grant.scopes.contains) else {
                    return .failure(TokenEndpointError(.invalidScope, "scope exceeds the scope originally granted"))
                }
                grant.scopes = scopes
            }
            let issuedRefreshToken: String
            switch rotation {
            case .off:
                issuedRefreshToken = refreshToken
            case .strict:
                issuedRefreshToken = random.opaqueToken()
                family.retiredRefreshTokens.insert(refreshToken)
                family.refreshToken = issuedRefreshToken
            case .grace:
                issuedRefreshToken = random.opaqueToken()
                if presentedPrevious {
                    // The successor was never used: it is retired, the previous one keeps its grace.
                    family.retiredRefreshTokens.insert(family.refreshToken)
                } else {
                    // The current token is used: its predecessor's grace ends, it becomes the previous one.
                    if let previous = family.previousRefreshToken { family.retiredRefreshTokens.insert(previous) }
                    family.previousRefreshToken = refreshToken
                    family.previousUntil = graceTime.map { now + $0 }
                }
                family.refreshToken = issuedRefreshToken
            }
            state.families[familyID] = family
            state.refreshTokens[Exact(issuedRefreshToken)] = familyID
            let accessToken = issueAccessToken(family: familyID, grant: grant, now: now, in: &state)
            return .success(
                IssuedTokens(
                    accessToken: accessToken,
                    refreshToken: issuedRefreshToken,
                    expiresIn: expiresIn,
                    scopes: grant.scopes
                )
            )
        }
        return try result.get()
    }

    /// Token revocation (RFC 7009 §2.1) for an already authenticated client. `hint` is where to look first;
    /// the other kind is searched too.
    func revoke(token: String, hint: TokenTypeHint?, clientID: String) -> Revocation {
        let now = clock.now
        return state.withLockedValue { state in
            func revokeAccess() -> Revocation? {
                guard let record = state.accessTokens[Exact(token)], record.expiresAt > now else { return nil }
                guard Exact(record.grant.clientID) == Exact(clientID) else { return .otherClient }
                state.accessTokens[Exact(token)] = nil
                state.families[record.family]?.accessTokens.remove(Exact(token))
                return .accessToken
            }
            func revokeRefresh() -> Revocation? {
                guard let familyID = state.refreshTokens[Exact(token)], let family = state.families[familyID] else { return nil }
                guard Exact(family.grant.clientID) == Exact(clientID) else { return .otherClient }
                revoke(family: familyID, in: &state)
                return .refreshToken
            }
            switch hint {
            case .refreshToken: return revokeRefresh() ?? revokeAccess() ?? .unknown
            case .accessToken, nil: return revokeAccess() ?? revokeRefresh() ?? .unknown
            }
        }
    }

    /// The grant behind a live access token, nil when unknown, expired or revoked.
    func accessGrant(for accessToken: String) -> AccessGrant? {
        let now = clock.now
        return state.withLockedValue { state in
            guard let record = state.accessTokens[Exact(accessToken)], record.expiresAt > now else { return nil }
            return record.grant
        }
    }

    private var expiresIn: Int { Int(accessTokenLifetime.components.seconds) }

    private func issueAccessToken(
        family: Int,
        grant: AccessGrant,
        now: ContinuousClock.Instant,
        in state: inout State
    )
        -> String
    {
        let token = random.opaqueToken()
        state.accessTokens[Exact(token)] = AccessRecord(grant: grant, family: family, expiresAt: now + accessTokenLifetime)
        state.families[family]?.accessTokens.insert(Exact(token))
        return token
    }

    private func revoke(family familyID: Int, in state: inout State) {
        guard let family = state.families.removeValue(forKey: familyID) else { return }
        for token in family.accessTokens { state.accessTokens[token] = nil }
        state.refreshTokens[Exact(family.refreshToken)] = nil
        if let previous = family.previousRefreshToken { state.refreshTokens[Exact(previous)] = nil }
        for token in family.retiredRefreshTokens { state.refreshTokens[Exact(token)] = nil }
    }

    /// Drops expired codes and access tokens, at most once per code lifetime, so memory stays bounded by
    /// the traffic of the last lifetime.
    private func sweep(_ state: inout State, now: ContinuousClock.Instant) {
        guard now >= state.nextSweep else { return }
        state.nextSweep = now + codeLifetime
        state.codes = state.codes.filter { $0.value.expiresAt > now }
        let expired = state.accessTokens.filter { $0.value.expiresAt <= now }
        for (token, record) in expired {
            state.accessTokens[token] = nil
            state.families[record.family]?.accessTokens.remove(token)
        }
    }
}
