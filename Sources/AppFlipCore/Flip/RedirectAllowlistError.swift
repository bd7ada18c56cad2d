/// Why a configured allowlist cannot be used.
public struct RedirectAllowlistError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        case empty
        case duplicate(ofIndex: Int)
        case refused(RedirectRefusal)
        /// The path does not start with `/`, or has `.` or `..` segments, which clients may rewrite.
        case pathNotCanonical(String)
    }

    /// The offending entry's position in the list; `nil` when the list itself is at fault.
    public let index: Int?
    public let uri: String?
    public let reason: Reason

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
