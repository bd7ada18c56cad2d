/// What a refresh does to the refresh token it was given (`refreshTokenRotation` in oauth.json).
public enum RefreshTokenRotation: String, Sendable, Hashable, Codable, CaseIterable {
    /// A new refresh token each time; the previous one keeps working until the new one is first used (or
    /// `refreshTokenGraceSeconds` pass), then its reuse revokes the family. What Google's account-linking
    /// validation expects.
    case grace
    /// A new refresh token each time; the presented one is retired at once, and its reuse revokes the family.
    case strict
    /// No rotation: the same refresh token is returned.
    case off
}
