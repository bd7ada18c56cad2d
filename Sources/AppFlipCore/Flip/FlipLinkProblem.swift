/// One thing wrong with one parameter of a flip link.
public struct FlipLinkProblem: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the parameter.
    public enum Kind: Sendable, Hashable {
        case missing
        /// Present with no value (`state=` or `state`).
        case empty
        /// Present more than once; no occurrence is trusted over another.
        case duplicated(count: Int)
        /// Not valid UTF-8 once decoded, so it cannot be compared or echoed faithfully.
        case notUTF8
        /// A leading, trailing or doubled space in `scope` (RFC 6749 §3.3).
        case emptyScopeToken
        /// A `scope` character outside RFC 6749 §3.3's NQCHAR (`"`, `\`, controls, non-ASCII).
        case invalidScopeCharacter
    }

    /// The parameter at fault.
    public let parameter: FlipLink.Parameter
    /// What is wrong with it.
    public let kind: Kind

    /// Creates a problem of `kind` with `parameter`.
    public init(_ parameter: FlipLink.Parameter, _ kind: Kind) {
        self.parameter = parameter
        self.kind = kind
    }

    /// `parameter` and what is wrong with it; the value is never quoted.
    public var description: String {
        switch kind {
        case .missing: "\(parameter) is missing"
        case .empty: "\(parameter) is empty"
        case .duplicated(let count): "\(parameter) occurs \(count) times"
        case .notUTF8: "\(parameter) is not valid UTF-8 once decoded"
        case .emptyScopeToken: "\(parameter) has an empty scope (a leading, trailing or doubled space)"
        case .invalidScopeCharacter: "\(parameter) has a character not allowed in a scope (RFC 6749 section 3.3)"
        }
    }
}
