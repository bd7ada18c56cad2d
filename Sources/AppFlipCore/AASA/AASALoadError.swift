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
