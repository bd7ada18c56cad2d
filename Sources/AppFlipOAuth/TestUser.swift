import AppFlipConfiguration

/// A user who can be signed in. A disabled user's authorization is denied (`access_denied`), the way a
/// disabled account is in the App Flip seed.
public struct TestUser: Sendable, Hashable, Codable {
    public var username: String
    public var disabled: Bool

    public init(username: String, disabled: Bool = false) {
        self.username = username
        self.disabled = disabled
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case username, disabled
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        username = try container.decode(String.self, forKey: .username)
        disabled = try container.decodeIfPresent(Bool.self, forKey: .disabled) ?? false
    }
}
