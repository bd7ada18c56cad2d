/// A statement list (`/.well-known/assetlinks.json` or an included file) read once, with what each of
/// Android's two verifiers makes of every entry.
///
/// Google's verifier (the Digital Asset Links API, and the verifier on devices with Google Play services)
/// drops a malformed statement, keeps the rest and reports `ERROR_CODE_MALFORMED_CONTENT` (comptest2003).
/// AOSP's StatementService (Android 12+ without Play services) skips only a statement without an object
/// `target` or an array `relation`; anything else it cannot read throws out of
/// `StatementParser.parseStatementList`, and `DomainVerifier.verifyHost` turns that into state 1028 for the
/// host (`network/retriever/StatementParser.kt`, `retriever/JsonParser.java`, `domain/DomainVerifier.kt`).
public struct StatementList: Sendable {
    /// What a verifier does with one entry.
    public enum Effect: Sendable, Hashable {
        case kept
        case skipped
        /// The whole host fails (StatementService only).
        case failsHost
    }

    /// An `include` statement's value.
    public enum Include: Sendable, Hashable {
        case url(String)
        /// Not a string: Google's verifier drops it; StatementService reads it as text that is no URL.
        case notString
    }

    /// One element of the top-level array.
    public struct Entry: Sendable, Hashable {
        public let pointer: String
        /// The statement, when the entry is one both verifiers could read far enough to name a target.
        public let statement: AssetStatement?
        public let include: Include?
        public let google: Effect
        public let statementService: Effect
    }

    public let entries: [Entry]
    /// Every finding, in document order.
    public let diagnostics: [AssetLinksDiagnostic]
    /// Why the document as a whole cannot be read (not JSON, not an array); nil when it can.
    public let refusal: AssetLinksDiagnostic?
    /// A UTF-8 byte order mark before the JSON: StatementService's strict `JsonReader` refuses it.
    public let hasByteOrderMark: Bool

    /// Reads UTF-8 JSON text; never throws, every problem is a diagnostic.
    public init(json: some Collection<UInt8>) {
        var loader = StatementListLoader(Array(json))
        entries = loader.load()
        diagnostics = loader.diagnostics
        refusal = loader.refusal
        hasByteOrderMark = json.starts(with: [0xEF, 0xBB, 0xBF])
    }

    /// The statements Google's verifier keeps.
    public var googleStatements: [AssetStatement] {
        entries.compactMap { $0.google == .kept ? $0.statement : nil }
    }

    /// The Digital Asset Links API's error code for `diagnostic`: `ERROR_CODE_MALFORMED_CONTENT` for one that
    /// makes the API refuse the document or drop its statement (comptest2003, 2006–2014); nil for one the API
    /// accepts (every warning).
    public func apiErrorCode(of diagnostic: AssetLinksDiagnostic) -> GoogleVerifier.ErrorCode? {
        guard diagnostic.severity == .error else { return nil }
        if refusal != nil { return .malformedContent }
        let dropped = entries.contains { entry in
            entry.google == .skipped && (diagnostic.pointer == entry.pointer || diagnostic.pointer.hasPrefix(entry.pointer + "/"))
        }
        return dropped ? .malformedContent : nil
    }

    /// The statements StatementService keeps; nil when it refuses the file (state 1028).
    public var statementServiceStatements: [AssetStatement]? {
        if refusal != nil || hasByteOrderMark || entries.contains(where: { $0.statementService == .failsHost }) { return nil }
        return entries.compactMap { $0.statementService == .kept ? $0.statement : nil }
    }
}
