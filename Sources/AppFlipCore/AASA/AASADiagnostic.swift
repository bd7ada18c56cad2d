/// One finding about an apple-app-site-association document: what, where, and how serious.
public struct AASADiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad a finding is: errors refuse the document, warnings only report.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// The document cannot be loaded: something in it is malformed or cannot work.
        case error
        /// The document loads, but almost certainly does not do what its author meant.
        case warning

        /// Errors sort before warnings, so reports lead with what blocks loading.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    /// The stable code, e.g. `AASA110`. Codes never change meaning; build CI checks on them, not on messages.
    public let code: Code
    /// How serious the finding is; fixed by its code.
    public var severity: Severity { code.severity }
    /// An RFC 6901 JSON pointer to the value at fault, e.g. `/applinks/details/0/components/2/?`.
    /// The empty pointer is the whole document.
    public let pointer: String
    /// Why, in users' words.
    public let message: String

    /// Creates a finding; `pointer` is an RFC 6901 pointer into the document.
    public init(_ code: Code, at pointer: String, _ message: String) {
        self.code = code
        self.pointer = pointer
        self.message = message
    }

    /// `pointer: severity CODE: message`, one line per finding as `appflip aasa validate` prints them.
    public var description: String {
        "\(pointer.isEmpty ? "(document)" : pointer): \(severity.rawValue) \(code.rawValue): \(message)"
    }

    /// Every diagnostic code. The numbering follows the blazingly-aasa conformance corpus so that
    /// reports from either tool can be compared; the 00x codes are about the JSON itself.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case invalidJSON = "AASA001"
        case rootNotObject = "AASA002"
        case wrongType = "AASA004"
        case duplicateKey = "AASA005"
        case noRecognizedService = "AASA100"
        case detailWithoutAppID = "AASA110"
        case bothAppIDForms = "AASA111"
        case skippedDetail = "AASA112"
        case componentsAndPaths = "AASA120"
        case legacyAppsNotEmpty = "AASA122"
        case emptyAppID = "AASA130"
        case invalidVariableName = "AASA140"
        case recursiveSubstitution = "AASA141"
        case undefinedVariable = "AASA142"
        case emptyVariable = "AASA143"
        case shadowedPredefinedVariable = "AASA144"
        case nonStringQueryPredicate = "AASA150"
        case unterminatedSubstitution = "AASA151"
        case skippedComponent = "AASA152"
        case documentTooLarge = "AASA170"
        case catchAllShadowsRules = "AASA180"
        case unreachableRule = "AASA190"
        case noDetails = "AASA193"

        /// The severity every finding with this code has.
        public var severity: Severity {
            switch self {
            case .invalidJSON, .rootNotObject, .wrongType, .emptyAppID, .invalidVariableName,
                .recursiveSubstitution, .undefinedVariable, .unterminatedSubstitution, .documentTooLarge:
                .error
            case .duplicateKey, .noRecognizedService, .detailWithoutAppID, .skippedDetail, .skippedComponent, .bothAppIDForms, .componentsAndPaths,
                .legacyAppsNotEmpty, .emptyVariable,
                .shadowedPredefinedVariable, .nonStringQueryPredicate, .catchAllShadowsRules, .unreachableRule,
                .noDetails:
                .warning
            }
        }

        /// A one-line summary, for help texts and the docs table.
        public var title: String {
            switch self {
            case .invalidJSON: "the file is not JSON"
            case .rootNotObject: "the document is not a JSON object"
            case .wrongType: "a value has the wrong JSON type"
            case .duplicateKey: "a key appears twice in one object; the last value counts"
            case .noRecognizedService: "no applinks, webcredentials, appclips or activitycontinuation section"
            case .detailWithoutAppID: "a details entry names no app (neither appID nor appIDs); it is skipped"
            case .skippedDetail: "a details entry has a value of the wrong type; it is skipped"
            case .skippedComponent: "a component or defaults object has a value of the wrong type; it is skipped"
            case .bothAppIDForms: "a details entry has both appID and appIDs; appIDs wins"
            case .componentsAndPaths: "a details entry has both components and legacy paths; paths are ignored"
            case .legacyAppsNotEmpty: "the legacy applinks.apps array is not empty"
            case .emptyAppID: "an app identifier is empty"
            case .invalidVariableName: "a substitution variable name contains $, ( or ) or is empty"
            case .recursiveSubstitution: "a substitution value refers to another variable"
            case .undefinedVariable: "a pattern uses an undefined substitution variable"
            case .emptyVariable: "a substitution variable has no values, so it never matches"
            case .shadowedPredefinedVariable: "a substitution variable replaces a predefined one"
            case .nonStringQueryPredicate: "a query item pattern is not a string, so the whole ? dictionary is ignored"
            case .unterminatedSubstitution: "a pattern has $( without a closing )"
            case .documentTooLarge: "the file is larger than Apple's 128 KB limit"
            case .catchAllShadowsRules: "a rule matches every URL, so the rules after it never run"
            case .unreachableRule: "a rule never runs, because an earlier rule matches every URL"
            case .noDetails: "applinks has no details, so no app can open this domain"
            }
        }
    }
}

/// Why an apple-app-site-association document was refused. Nothing of it was loaded.
public struct AASALoadError: Error, Sendable, CustomStringConvertible {
    /// Every diagnostic found, errors and warnings, in document order.
    public let diagnostics: [AASADiagnostic]

    /// Only the diagnostics that refused the document; the warnings are left out.
    public var errors: [AASADiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// A count of the errors, then each error on its own line.
    public var description: String {
        let errors = errors
        let summary = errors.count == 1 ? "1 error" : "\(errors.count) errors"
        return "the apple-app-site-association document was refused (\(summary)):\n"
            + errors.map { "  " + $0.description }.joined(separator: "\n")
    }
}
