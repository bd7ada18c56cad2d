/// One finding about a Digital Asset Links statement list (`/.well-known/assetlinks.json`): what, where
/// (an RFC 6901 pointer and the line and column it was written at), and how serious.
///
/// Errors are what a verifier refuses: Google's verifier drops the statement (or the whole file, for the
/// document-level codes); warnings are what both verifiers accept although it almost certainly does not do
/// what its author meant. What each finding costs on each verifier is in `StatementList.Entry`.
public struct AssetLinksDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    /// The stable code, e.g. `DAL051`; build CI checks on it, not on the message.
    public let code: Code
    public var severity: Severity { code.severity }
    /// An RFC 6901 pointer to the value at fault; empty for the whole document.
    public let pointer: String
    /// Where the value at fault starts in the text (nil only when there is no text, e.g. an empty body).
    public let position: JSONSourcePosition?
    /// Why, in users' words.
    public let message: String

    public init(_ code: Code, at pointer: String, position: JSONSourcePosition?, _ message: String) {
        self.code = code
        self.pointer = pointer
        self.position = position
        self.message = message
    }

    /// `line:column pointer: severity CODE: message`.
    public var description: String {
        let place = position.map { "\($0.line):\($0.column) " } ?? ""
        return "\(place)\(pointer.isEmpty ? "(document)" : pointer): \(severity.rawValue) \(code.rawValue): \(message)"
    }

    /// Every diagnostic code. Each names one fault class as what it is, so that a fingerprint copied with its
    /// `SHA256: ` label is not reported as merely "malformed".
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case invalidJSON = "DAL001"
        case htmlInsteadOfJSON = "DAL002"
        case rootNotArray = "DAL003"
        case aasaDocument = "DAL004"
        case emptyList = "DAL005"
        case duplicateKey = "DAL006"
        case statementNotObject = "DAL010"
        case includeWithStatementFields = "DAL011"
        case invalidInclude = "DAL012"
        case missingRelation = "DAL020"
        case relationNotStrings = "DAL021"
        case malformedRelation = "DAL022"
        case missingTarget = "DAL030"
        case unknownNamespace = "DAL031"
        case misCasedKey = "DAL032"
        case aasaKey = "DAL033"
        case valueStatementServiceRefuses = "DAL034"
        case missingPackageName = "DAL040"
        case invalidPackageName = "DAL041"
        case missingFingerprints = "DAL050"
        case fingerprintNotString = "DAL051"
        case lowercaseFingerprint = "DAL052"
        case sha1Fingerprint = "DAL053"
        case placeholderFingerprint = "DAL054"
        case fingerprintTrailingCharacter = "DAL055"
        case fingerprintLabel = "DAL056"
        case fingerprintWrongLength = "DAL057"
        case malformedFingerprint = "DAL058"
        case missingSite = "DAL060"
        case siteWithPath = "DAL061"
        case siteWithQueryOrFragment = "DAL062"
        case siteWithUserInfo = "DAL063"
        case siteNotHTTP = "DAL064"
        case invalidSite = "DAL065"
        case invalidDynamicComponent = "DAL070"

        public var severity: Severity {
            switch self {
            case .emptyList, .duplicateKey, .aasaKey, .valueStatementServiceRefuses: .warning
            default: .error
            }
        }

        /// A one-line summary, for help texts and the docs table.
        public var title: String {
            switch self {
            case .invalidJSON: "the file is not JSON"
            case .htmlInsteadOfJSON: "an HTML page is served instead of the JSON file"
            case .rootNotArray: "the document is not a JSON array of statements"
            case .aasaDocument: "an apple-app-site-association document is served instead of a statement list"
            case .emptyList: "the statement list is empty"
            case .duplicateKey: "a key appears twice in one object; the last value counts"
            case .statementNotObject: "a statement is not a JSON object"
            case .includeWithStatementFields: "an include statement also carries relation or target"
            case .invalidInclude: "an include is not an http(s) URL"
            case .missingRelation: "a statement has no relation array"
            case .relationNotStrings: "relation is not an array of strings"
            case .malformedRelation: "a relation is not kind/detail, each [a-z0-9_.]+"
            case .missingTarget: "a statement has no target object"
            case .unknownNamespace: "a target's namespace is neither android_app nor web"
            case .misCasedKey: "a key is spelled in the wrong case, so the verifier does not see it"
            case .aasaKey: "an apple-app-site-association key (applinks, paths, appID …) is pasted into a statement"
            case .valueStatementServiceRefuses: "a number or null in a statement: StatementService refuses the whole file"
            case .missingPackageName: "an android_app target has no package_name"
            case .invalidPackageName: "package_name is not a valid Android package name"
            case .missingFingerprints: "an android_app target has no non-empty sha256_cert_fingerprints array"
            case .fingerprintNotString: "a fingerprint is not a string"
            case .lowercaseFingerprint: "a fingerprint is written in lower-case hex"
            case .sha1Fingerprint: "a fingerprint is 20 bytes: the SHA-1, not the SHA-256"
            case .placeholderFingerprint: "a fingerprint is a placeholder, not hex"
            case .fingerprintTrailingCharacter: "a fingerprint has a trailing character"
            case .fingerprintLabel: "a fingerprint keeps the SHA256: label keytool prints before it"
            case .fingerprintWrongLength: "a fingerprint is not 32 bytes"
            case .malformedFingerprint: "a fingerprint is not 32 upper-case hex pairs separated by colons"
            case .missingSite: "a web target has no site"
            case .siteWithPath: "a web target's site has a path"
            case .siteWithQueryOrFragment: "a web target's site has a query or fragment"
            case .siteWithUserInfo: "a web target's site has user info"
            case .siteNotHTTP: "a web target's site is not http or https"
            case .invalidSite: "a web target's site is not a valid URL"
            case .invalidDynamicComponent: "relation_extensions' dynamic_app_link_components has a value of the wrong type"
            }
        }
    }
}
