import AppFlipCore
import AppFlipHTTPClient
import Synchronization
import Testing

@testable import AppFlipOAuth

/// The store's memory bounds, without HTTP.
@Suite struct AuthorizationStoreTests {
    static func store(clock: ManualClock, maximumFamilies: Int = 100_000) -> AuthorizationStore {
        AuthorizationStore(
            clock: clock,
            random: CountingRandom(),
            codeLifetime: .seconds(60),
            accessTokenLifetime: .seconds(3600),
            maximumFamilies: maximumFamilies
        )
    }

    static func redeemNew(_ store: AuthorizationStore) throws -> AuthorizationStore.IssuedTokens {
        let code = store.issueCode(clientID: "c", redirectURI: "r", username: "u", scopes: ["s"], challenge: nil)
        return try store.redeem(code: code, clientID: "c", redirectURI: "r", verifier: nil)
    }

    @Test("beyond the family cap the oldest grant is revoked")
    func familyCap() throws {
        let store = Self.store(clock: ManualClock(), maximumFamilies: 3)
        let grants = try (0..<5).map { _ in try Self.redeemNew(store) }
        #expect(grants.map { store.accessGrant(for: $0.accessToken) != nil } == [false, false, true, true, true])
        #expect(throws: TokenEndpointError.self) {
            try store.refresh(refreshToken: grants[0].refreshToken, clientID: "c", scopes: nil)
        }
        #expect(try store.refresh(refreshToken: grants[4].refreshToken, clientID: "c", scopes: nil).scopes == ["s"])
    }

    @Test("an expired code is swept, and is then merely unknown")
    func sweep() throws {
        let clock = ManualClock()
        let store = Self.store(clock: clock)
        let stale = store.issueCode(clientID: "c", redirectURI: "r", username: "u", scopes: [], challenge: nil)
        clock.advance(by: .seconds(61))
        _ = store.issueCode(clientID: "c", redirectURI: "r", username: "u", scopes: [], challenge: nil)
        #expect(throws: TokenEndpointError(.invalidGrant, "the authorization code is unknown")) {
            try store.redeem(code: stale, clientID: "c", redirectURI: "r", verifier: nil)
        }
    }

    /// Swift's `==` takes the Kelvin sign for K and a decomposed é for the composed one: codes, tokens,
    /// client ids and redirect URIs are compared byte for byte, so a value the server never issued is unknown.
    @Test("a canonically equivalent code, token, client id or redirect URI is not the one issued")
    func exactComparison() throws {
        let store = AuthorizationStore(
            clock: ManualClock(),
            random: LeadingK(),
            codeLifetime: .seconds(60),
            accessTokenLifetime: .seconds(3600)
        )
        let kelvin = { (value: String) in value.replacing("K", with: "\u{212A}", maxReplacements: 1) }
        let code = store.issueCode(clientID: "c-K", redirectURI: "https://r/\u{E9}", username: "u", scopes: [], challenge: nil)
        // Swift's == says these are the same; they are not the bytes issued.
        #expect(kelvin(code) == code && "https://r/e\u{301}" == "https://r/\u{E9}")
        #expect(throws: TokenEndpointError(.invalidGrant, "the authorization code is unknown")) {
            try store.redeem(code: kelvin(code), clientID: "c-K", redirectURI: "https://r/\u{E9}", verifier: nil)
        }
        #expect(throws: TokenEndpointError(.invalidGrant, "the authorization code was issued to another client")) {
            try store.redeem(code: code, clientID: kelvin("c-K"), redirectURI: "https://r/\u{E9}", verifier: nil)
        }
        #expect(throws: TokenEndpointError(.invalidGrant, "redirect_uri is not identical to the authorization request's")) {
            try store.redeem(code: code, clientID: "c-K", redirectURI: "https://r/e\u{301}", verifier: nil)
        }
        let tokens = try store.redeem(code: code, clientID: "c-K", redirectURI: "https://r/\u{E9}", verifier: nil)
        #expect(throws: TokenEndpointError(.invalidGrant, "the refresh token is unknown or revoked")) {
            try store.refresh(refreshToken: kelvin(tokens.refreshToken), clientID: "c-K", scopes: nil)
        }
        #expect(store.accessGrant(for: kelvin(tokens.accessToken)) == nil)
        #expect(store.accessGrant(for: tokens.accessToken) != nil)
    }
}

/// Random bytes whose base64url starts with `K`, a counter after them.
private final class LeadingK: RandomSource {
    private let counter = Mutex<UInt8>(0)

    func bytes(_ count: Int) -> [UInt8] {
        let next = counter.withLock { value in
            value &+= 1
            return value
        }
        return [0x28] + Array(repeating: next, count: max(count - 1, 0))
    }
}
