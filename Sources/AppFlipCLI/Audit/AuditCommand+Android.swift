import AppFlipCore
import ArgumentParser

extension AuditCommand {
    /// The Android app target's options go together: the action, the package (which the Android association
    /// file's target shares), and what the Google app sends.
    func validateAndroid() throws {
        guard let androidAction else {
            if redirectURI != nil || !callerFingerprint.isEmpty {
                throw ValidationError("--redirect-uri and --caller-fingerprint need --android-package and --android-action")
            }
            return
        }
        if appArtifacts.isGiven && (androidPackage == nil || redirectURI == nil) {
            // The artifact's App Flip activity is checked against the action; the app through appflipd is not run.
            if androidAction.isEmpty || androidAction.utf8.count > IntentLimits.maxActionBytes {
                throw ValidationError("--android-action must be a non-empty action of at most \(IntentLimits.maxActionBytes) bytes")
            }
            return
        }
        guard let androidPackage else { throw ValidationError("--android-action needs --android-package") }
        if let problem = AndroidPackageName.problem(with: androidPackage) { throw ValidationError("--android-package \(problem)") }
        if androidAction.isEmpty || androidAction.utf8.count > IntentLimits.maxActionBytes {
            throw ValidationError("--android-action must be a non-empty action of at most \(IntentLimits.maxActionBytes) bytes")
        }
        guard let redirectURI, (try? RawURL(redirectURI))?.normalizedScheme == "https" else {
            throw ValidationError("--android-package needs --redirect-uri, an absolute https URL: the REDIRECT_URI Google sends")
        }
        if let problem = AndroidPackageName.problem(with: callerPackage) { throw ValidationError("--caller-package \(problem)") }
        guard !callerFingerprint.isEmpty, callerFingerprint.allSatisfy({ CertificateFingerprint.problem($0) == nil }) else {
            throw ValidationError(
                "--android-package needs --caller-fingerprint, 32 upper-case hex pairs with colons: Google publishes none, so give the one the partner allows"
            )
        }
    }
}
