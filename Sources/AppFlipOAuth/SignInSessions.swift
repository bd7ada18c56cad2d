import AppFlipConfiguration
import AppFlipHTTPClient

/// The embedded server's signed-in users: one random session cookie per configured test user, minted when
/// the server is created and held only in memory.
///
/// This is what protects the step-3 call. /authorize issues a code only to a request that carries one of
/// these cookies; they never leave the process except in requests to 127.0.0.1, so only the process that
/// owns the server (appflipd) can obtain codes. Restarting the server mints new ones.
struct SignInSessions: Sendable {
    static let cookieName = "appflip_session"

    private let usersByToken: [String: TestUser]
    private let tokensByUsername: [String: String]

    init(users: [TestUser], random: any RandomSource) {
        var usersByToken: [String: TestUser] = [:]
        var tokensByUsername: [String: String] = [:]
        for user in users {
            let token = random.opaqueToken()
            usersByToken[token] = user
            tokensByUsername[user.username] = token
        }
        self.usersByToken = usersByToken
        self.tokensByUsername = tokensByUsername
    }

    /// The cookie that signs `username` in, nil for an unknown user.
    func credential(for username: String) -> SessionCredential? {
        tokensByUsername[username].map { .cookie("\(Self.cookieName)=\($0)") }
    }

    /// The user a session cookie value belongs to.
    func user(forToken token: String) -> TestUser? {
        usersByToken[token]
    }
}
