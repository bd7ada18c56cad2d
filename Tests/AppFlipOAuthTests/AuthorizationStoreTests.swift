import AppFlipCore
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
}
