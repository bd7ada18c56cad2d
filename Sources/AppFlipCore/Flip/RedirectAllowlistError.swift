/// Why a configured allowlist cannot be used.
public struct RedirectAllowlistError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the list or the entry.
    public enum Reason: Sendable, Hashable {
        case empty
        case duplicate(ofIndex: Int)
        case refused(RedirectRefusal)
        /// The path does not start with `/`, or has `.` or `..` segments, which clients may rewrite.
        case pathNotCanonical(String)
    }

    /// The offending entry's position in the list; `nil` when the list itself is at fault.
    public let index: Int?
    /// The offending entry, when it is a string.
    public let uri: String?
    /// Why the allowlist cannot be used.
    public let reason: Reason

    /// A sentence for the configuration error.
    public var description: String {
        let entry = index.map { "redirect allowlist entry \($0)" } ?? "redirect allowlist"
        switch reason {
        case .empty: return "\(entry): the list is empty, so every link would be declined"
        case .duplicate(let first): return "\(entry): repeats entry \(first)"
        case .refused(let refusal): return "\(entry): \(refusal)"
        case .pathNotCanonical(let path): return "\(entry): the path '\(path)' must start with '/' and have no '.' or '..' segments"
        }
    }
}
