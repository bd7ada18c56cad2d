/// An Android app as the daemon knows it: its package, the SHA-256 fingerprints of its signing
/// certificates (the current one and any it rotated from: Android compares statements with the whole signing
/// history, `StatementUtils.getCertFingerprintsFromPackageManager`), the activities its manifest declares,
/// and the intent filters that decide which links it opens. A static app's comes from its `apps.d` file, a
/// live app's from its `register`; the daemon vouches for it to the apps it calls, as Android's package
/// manager vouches for a calling package and its signatures (`getCallingActivity`, `getPackageInfo`).
///
/// The `android` object of an app file and of `register`.
public struct AndroidIdentity: Sendable, Hashable {
    /// The application id, `com.example.app`.
    public var package: String
    /// The signing certificates' SHA-256 fingerprints, in ``CertificateFingerprint``'s spelling; more than
    /// one across a key rotation (`SigningInfo.getApkContentsSigners`).
    public var fingerprints: [String]
    /// The manifest's `<activity>` elements.
    public var activities: [AndroidActivity]
    /// The manifest's `<intent-filter>`s for links, in order.
    public var intentFilters: [IntentFilter]

    /// Creates an identity; ``problem()`` says whether Android would install it.
    public init(package: String, fingerprints: [String], activities: [AndroidActivity] = [], intentFilters: [IntentFilter] = []) {
        self.package = package
        self.fingerprints = fingerprints
        self.activities = activities
        self.intentFilters = intentFilters
    }

    /// Every host Android 12+ verifies for this app, each once, in filter order.
    public var verificationHosts: [String] {
        Self.unique(intentFilters.flatMap(\.verificationHosts))
    }

    /// Every host `generation` verifies for this app, each once, in filter order. Android 12+: the hosts of its
    /// autoVerify filters (`DomainVerificationCollector`). Android 6–11: once one filter asks for verification
    /// (`needsVerification()`), the hosts of every filter that takes web links, autoVerify or not
    /// (`IntentFilterVerificationManager.verifyIntentFiltersIfNeeded`, `handlesWebUris(false)`); none otherwise.
    public func verificationHosts(on generation: AndroidGeneration) -> [String] {
        guard generation == .android11AndEarlier else { return verificationHosts }
        guard intentFilters.contains(where: \.asksLegacyVerification) else { return [] }
        let web = intentFilters.filter { $0.handlesWebURIs(onlyWebSchemes: false) }
        return Self.unique(web.flatMap { $0.authorities.map { $0.host.lowercasedASCII } })
    }

    /// Every host some generation verifies for this app: the hosts a statement list may be given for.
    public var anyGenerationVerificationHosts: [String] {
        Self.unique(AndroidGeneration.allCases.flatMap { verificationHosts(on: $0) })
    }

    private static func unique(_ hosts: [String]) -> [String] {
        var unique: [String] = []
        for host in hosts where !unique.contains(host) { unique.append(host) }
        return unique
    }

    /// Why the identity cannot be used, with the field at fault, or nil.
    public func problem() -> IntentProblem? {
        if let problem = AndroidPackageName.problem(with: package) { return IntentProblem(field: "package", problem) }
        if fingerprints.isEmpty { return IntentProblem(field: "fingerprints", "must list at least one signing certificate fingerprint") }
        for (index, fingerprint) in fingerprints.enumerated() {
            if let problem = CertificateFingerprint.problem(fingerprint) {
                return IntentProblem(field: "fingerprints[\(index)]", StatementListLoader.describe(problem).1)
            }
        }
        var names: Set<String> = []
        for (index, activity) in activities.enumerated() {
            if let problem = activity.problem() {
                return IntentProblem(field: "activities[\(index)]" + (problem.field.map { ".\($0)" } ?? ""), problem.message)
            }
            guard names.insert(activity.className(in: package)).inserted else {
                return IntentProblem(field: "activities[\(index)].name", "\(activity.className(in: package)) is declared twice")
            }
        }
        return nil
    }

    /// Who this app is to an app it starts for a result: its package and signatures, not its activities.
    public var caller: AndroidCaller {
        AndroidCaller(package: package, fingerprints: fingerprints)
    }
}

/// The caller's identity an activity started for a result learns from the daemon, never from the caller:
/// `Activity.getCallingPackage()` and the signatures the package manager holds for that package.
public struct AndroidCaller: Sendable, Hashable, Codable {
    /// The calling package.
    public var package: String
    /// Its signing certificates' SHA-256 fingerprints.
    public var fingerprints: [String]

    /// Creates the identity.
    public init(package: String, fingerprints: [String]) {
        self.package = package
        self.fingerprints = fingerprints
    }
}

extension AndroidIdentity: Codable {
    private enum CodingKeys: String, CodingKey {
        case package, fingerprints, activities, intentFilters
    }

    /// Decodes the identity and refuses one that ``problem()`` finds fault with, at the field's path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        package = try container.decode(String.self, forKey: .package)
        fingerprints = try container.decode([String].self, forKey: .fingerprints)
        activities = try container.decodeIfPresent([AndroidActivity].self, forKey: .activities) ?? []
        intentFilters = try container.decodeIfPresent([IntentFilter].self, forKey: .intentFilters) ?? []
        if let problem = problem() { throw problem.decodingError(under: container.codingPath) }
    }

    /// Encodes the identity; `intentFilters` only when there are some, as an app that only speaks intents
    /// writes none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(package, forKey: .package)
        try container.encode(fingerprints, forKey: .fingerprints)
        try container.encode(activities, forKey: .activities)
        if !intentFilters.isEmpty { try container.encode(intentFilters, forKey: .intentFilters) }
    }
}
