import AppFlipConfiguration
import AppFlipCore

/// The `android` object of the `"appflip"` handler: who may start the partner's App Flip activity, and which
/// `REDIRECT_URI`s it takes. The client ids are the handler's `clientIDs`.
///
/// ```json
/// "android": {
///   "callers": [{"package": "com.google.android.googlequicksearchbox", "fingerprints": ["AA:…"]}],
///   "redirectURIs": ["https://oauth-redirect.googleusercontent.com/r/my-project"]
/// }
/// ```
///
/// `callers` has no default: Google publishes no signing-certificate fingerprint of the Google app or of
/// Google Home with App Flip, so the partner takes it from the installed app (docs/configuration.md).
struct AndroidPartnerConfiguration: Sendable, Decodable {
    var callers: [AndroidCaller]
    var redirectURIs: [String]?

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case callers, redirectURIs
    }

    private enum CallerKeys: String, CodingKey, CaseIterable {
        case package, fingerprints
    }

    /// Decodes the section, holding every package and fingerprint to Android's spelling.
    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        guard container.contains(.callers) else {
            throw ConfigurationError(
                at: container.codingPath + [CodingKeys.callers],
                "is required: the packages and fingerprints allowed to start the flip"
            )
        }
        var list = try container.nestedUnkeyedContainer(forKey: .callers)
        var callers: [AndroidCaller] = []
        while !list.isAtEnd {
            let caller = try list.superDecoder().strictContainer(keyedBy: CallerKeys.self)
            let package = try caller.decodeNonEmptyString(forKey: .package)
            if let problem = AndroidPackageName.problem(with: package) {
                throw ConfigurationError(at: caller.codingPath + [CallerKeys.package], problem)
            }
            let fingerprints = try caller.decodeStringList(forKey: .fingerprints)
            for fingerprint in fingerprints where CertificateFingerprint.problem(fingerprint) != nil {
                throw ConfigurationError(
                    at: caller.codingPath + [CallerKeys.fingerprints],
                    "\"\(fingerprint)\" is not a SHA-256 fingerprint as keytool prints it: 32 upper-case hex pairs separated by colons"
                )
            }
            callers.append(AndroidCaller(package: package, fingerprints: fingerprints))
        }
        guard !callers.isEmpty else {
            throw ConfigurationError(at: container.codingPath + [CodingKeys.callers], "must list at least one caller")
        }
        self.callers = callers
        redirectURIs = try container.contains(.redirectURIs) ? container.decodeStringList(forKey: .redirectURIs) : nil
    }
}
