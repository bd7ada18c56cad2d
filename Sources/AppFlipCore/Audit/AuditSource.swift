/// The documents the audit's rules come from, cited by each check.
public enum AuditSource {
    /// Google's "App Flip for iOS" page, the seed of this project.
    public static let seed = "Google, App Flip for iOS (seed)"
    /// Google's account-linking validation tool.
    public static let validationTool = "Google account-linking validation tool (developers.google.com/identity/account-linking/gal-validation-tool)"
    /// Apple's universal-link rules as `swcutil` applies them.
    public static let appleAASA = "Apple, Supporting associated domains (apple-app-site-association)"

    /// An RFC section, e.g. `rfc(6749, "4.1.3")`.
    public static func rfc(_ number: Int, _ section: String) -> String { "RFC \(number) §\(section)" }
}
