import AppFlipCore

/// A user who can be signed in. A disabled user's authorization is denied (`access_denied`), the way a
/// disabled account is in the App Flip seed.
public struct TestUser: Sendable, Hashable, Codable {
    /// The name a sign-in session is minted for; the partner handler's `embedded.user` selects it.
    public var username: String
    /// A disabled user cannot sign in: /authorize answers `access_denied`, to test the flip's error path.
    public var disabled: Bool

    /// Creates a user, enabled unless said otherwise.
    public init(username: String, disabled: Bool = false) {
        self.username = username
        self.disabled = disabled
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case username, disabled
    }

    /// Decodes a `users` entry of `oauth.json`, refusing unknown keys.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        username = try container.decode(String.self, forKey: .username)
        disabled = try container.decodeIfPresent(Bool.self, forKey: .disabled) ?? false
    }
}
