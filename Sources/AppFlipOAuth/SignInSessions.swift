import AppFlipConfiguration
import AppFlipHTTPClient
import NIOConcurrencyHelpers

/// The embedded server's signed-in users: one random session cookie per configured test user, minted when
/// the server is created and held only in memory, and the further sessions its owner mints.
///
/// This is what protects the step-3 call. /authorize issues a code only to a request that carries one of
/// these cookies; they never leave the process except in requests to 127.0.0.1, so only the process that
/// owns the server (appflipd) can obtain codes. Restarting the server mints new ones. `POST /signout` ends
/// the session whose cookie it carries: a session ended is a sign-in no longer, while the codes and tokens
/// it obtained live on (a refresh token outlives the session that linked it).
final class SignInSessions: Sendable {
    static let cookieName = "appflip_session"

    private struct State {
        var usersByToken: [Exact: TestUser] = [:]
        var standing: [String: String] = [:]
    }

    private let state: NIOLockedValueBox<State>
    private let users: [String: TestUser]
    private let random: any RandomSource

    init(users: [TestUser], random: any RandomSource) {
        var state = State()
        for user in users {
            let token = random.opaqueToken()
            state.usersByToken[Exact(token)] = user
            state.standing[user.username] = token
        }
        self.state = NIOLockedValueBox(state)
        self.users = Dictionary(users.map { ($0.username, $0) }, uniquingKeysWith: { first, _ in first })
        self.random = random
    }

    /// The cookie of `username`'s standing session, nil for an unknown user or once it has ended.
    func credential(for username: String) -> SessionCredential? {
        state.withLockedValue { $0.standing[username] }.map(Self.cookie)
    }

    /// A new session of `username`, beside the standing one; nil for an unknown user.
    func newSession(for username: String) -> SessionCredential? {
        guard let user = users[username] else { return nil }
        let token = random.opaqueToken()
        state.withLockedValue { $0.usersByToken[Exact(token)] = user }
        return Self.cookie(token)
    }

    /// The user a session cookie value belongs to, while the session lasts.
    func user(forToken token: String) -> TestUser? {
        state.withLockedValue { $0.usersByToken[Exact(token)] }
    }

    /// Ends the session of `token`; false when there was none.
    func end(token: String) -> Bool {
        state.withLockedValue { state in
            guard let user = state.usersByToken.removeValue(forKey: Exact(token)) else { return false }
            if state.standing[user.username].map(Exact.init) == Exact(token) { state.standing[user.username] = nil }
            return true
        }
    }

    private static func cookie(_ token: String) -> SessionCredential {
        .cookie("\(cookieName)=\(token)")
    }
}
