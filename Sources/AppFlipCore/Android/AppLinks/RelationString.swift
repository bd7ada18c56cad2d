/// A Digital Asset Links relation, `kind/detail`, each part `[a-z0-9_.]+`.
///
/// Google's rule (digitalassetlinks `well-known/details.md`, comptest2101–2125) and AOSP's are the same:
/// StatementService's `retriever/Relation.java` splits at the first `/` and checks both halves with the
/// same pattern, throwing on a mismatch.
public enum RelationString {
    /// The relation that lets an app handle a site's links: the one App Links verification asks about.
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// Why a relation string is malformed.
    public enum Problem: Sendable, Hashable {
        /// Not exactly one `/` between kind and detail.
        case noSeparator
        case invalidKind
        case invalidDetail
    }

    /// Nil when `relation` is well formed.
    public static func problem(_ relation: String) -> Problem? {
        guard relation.utf8.count(where: { $0 == UInt8(ascii: "/") }) == 1, let slash = relation.utf8.firstIndex(of: UInt8(ascii: "/")) else {
            return .noSeparator
        }
        let kind = relation.utf8[..<slash]
        let detail = relation.utf8[relation.utf8.index(after: slash)...]
        if !isPart(kind) { return .invalidKind }
        if !isPart(detail) { return .invalidDetail }
        return nil
    }

    private static func isPart(_ bytes: Substring.UTF8View) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
    }
}
