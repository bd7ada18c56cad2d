/// Why a policy cannot be built.
public enum FlipPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    case noClientIDs
    case emptyClientID(index: Int)

    /// A sentence for the configuration error.
    public var description: String {
        switch self {
        case .noClientIDs: "no expected client id is configured, so every flip link would be declined"
        case .emptyClientID(let index): "expected client id \(index) is empty"
        }
    }
}
