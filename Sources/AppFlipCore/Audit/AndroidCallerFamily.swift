/// A calling app that is not one the partner allows, with what differs, for the report.
public struct AndroidCallerVariant: Sendable, Hashable {
    /// What differs from the allowed caller: `a child package`, `its last byte changed`.
    public var label: String
    /// The identity the daemon vouches for when it starts the partner's activity.
    public var caller: AndroidCaller

    /// Creates the variant.
    public init(label: String, caller: AndroidCaller) {
        self.label = label
        self.caller = caller
    }
}

/// The callers an App Flip activity must refuse, by each way an inexact caller check lets one through (App Flip
/// for Android, "How it works" step 4: the partner's app checks the calling package and its signature): packages
/// that look like an allowed one, signed by its certificates, so that only the package comparison is probed; and
/// the allowed package signed by other keys, so that only the signature comparison is. Each variant is a package
/// Android would install and fingerprints a certificate can have (``CertificateFingerprint``'s one spelling: a
/// key spelled in lower case is the same key, never another), and differs from the allowed caller under exact
/// comparison.
public enum AndroidCallerFamily {
    /// A Google app that starts App Flip intents, or that Google's samples name as the caller.
    public struct GoogleApp: Sendable, Hashable {
        public var package: String
        /// What it is, for the report.
        public var name: String
    }

    /// Google's apps that start App Flip on Android: the Google app (the caller App Flip for Android names, and
    /// appflip's default `--caller-package`), Google Home (whose smart-home account linking uses App Flip:
    /// developers.home.google.com/cloud-to-cloud/enhancements/app-flip), and the App Flip Test Tool
    /// (googlesamples/identity-appflip-tester-android, `applicationId`; the caller
    /// googlesamples/identity-appflip-android's `calling_app_package_name` allows). A partner may allow each of
    /// them, so none is a lookalike.
    public static let googleApps: [GoogleApp] = [
        GoogleApp(package: "com.google.android.googlequicksearchbox", name: "the Google app"),
        GoogleApp(package: "com.google.android.apps.chromecast.app", name: "Google Home"),
        GoogleApp(package: "com.google.appfliptesttool", name: "Google's App Flip Test Tool"),
    ]

    /// Packages that look like `caller`'s, each signed by `caller`'s certificates: a child, a sibling, its
    /// parent, prefixes, a suffix, one that ends with it, other cases, a character changed, a dot that a
    /// regular expression reads as any character, and one at Android's length limit.
    public static func lookalikePackages(of caller: AndroidCaller) -> [AndroidCallerVariant] {
        let package = caller.package
        let segments = package.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let last = segments.last ?? ""
        let parent = segments.dropLast()
        var candidates: [(String, String)] = [
            ("a child package", package + ".attacker"),
            ("a sibling", (parent + ["attacker"]).joined(separator: ".")),
            ("its parent", parent.joined(separator: ".")),
            ("a character appended", package + "x"),
            ("its last character dropped", String(package.dropLast())),
            ("its last segment cut short", (parent + [String(last.prefix(last.count / 2 + 1))]).joined(separator: ".")),
            ("a package that ends with it", "attacker." + package),
            ("upper case", package.uppercased()),
            ("each segment capitalized", segments.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: ".")),
            ("its last character changed", String(package.dropLast()) + (package.hasSuffix("x") ? "y" : "x")),
        ]
        if let dot = package.lastIndex(of: ".") {
            var underscored = package
            underscored.replaceSubrange(dot...dot, with: "_")
            candidates.append(("its last dot an underscore, which a regular expression's . matches", underscored))
        }
        let padding = AndroidPackageName.maxBytes - package.utf8.count - 1
        if padding > 0 {
            candidates.append(
                ("a child package at Android's \(AndroidPackageName.maxBytes)-byte limit", package + "." + String(repeating: "a", count: padding))
            )
        }
        var seen: Set<String> = [package]
        return candidates.compactMap { label, lookalike in
            guard AndroidPackageName.isValid(lookalike), seen.insert(lookalike).inserted else { return nil }
            return AndroidCallerVariant(label: label, caller: AndroidCaller(package: lookalike, fingerprints: caller.fingerprints))
        }
    }

    /// `caller`'s package signed by keys none of `caller.fingerprints` is: an unrelated key, each allowed key
    /// with its last byte changed (a comparison of a prefix lets it through) and with its first byte changed (a
    /// suffix), and two unrelated keys at once (an app signed by several signers, or one that rotated keys).
    public static func otherKeys(of caller: AndroidCaller) -> [AndroidCallerVariant] {
        let allowed = Set(caller.fingerprints)
        let unrelated = stride(from: 0x11, through: 0xFF, by: 0x11).lazy.map { fingerprint(Array(repeating: UInt8($0), count: 32)) }
        let others = Array(unrelated.filter { !allowed.contains($0) }.prefix(2))
        var candidates: [(String, [String])] = [("an unrelated key", [others[0]])]
        for (index, allowedKey) in caller.fingerprints.enumerated() {
            guard let bytes = bytes(of: allowedKey) else { continue }
            let which = caller.fingerprints.count > 1 ? "allowed key \(index + 1)" : "the allowed key"
            var lastChanged = bytes
            lastChanged[31] ^= 0x01
            var firstChanged = bytes
            firstChanged[0] ^= 0x01
            candidates.append(("\(which) with its last byte changed", [fingerprint(lastChanged)]))
            candidates.append(("\(which) with its first byte changed", [fingerprint(firstChanged)]))
        }
        candidates.append(("two unrelated keys (several signers, or a rotation)", others))
        var seen: Set<[String]> = []
        return candidates.compactMap { label, keys in
            guard !keys.contains(where: allowed.contains), seen.insert(keys).inserted else { return nil }
            return AndroidCallerVariant(label: label, caller: AndroidCaller(package: caller.package, fingerprints: keys))
        }
    }

    /// The 32 bytes of a well-formed fingerprint, or nil.
    private static func bytes(of fingerprint: String) -> [UInt8]? {
        guard CertificateFingerprint.problem(fingerprint) == nil else { return nil }
        return fingerprint.utf8.split(separator: UInt8(ascii: ":")).map { pair in
            let digits = Array(pair)
            return (Hex.value(of: digits[0]) ?? 0) << 4 | (Hex.value(of: digits[1]) ?? 0)
        }
    }

    /// `bytes` in ``CertificateFingerprint``'s spelling: upper-case hex pairs separated by colons.
    private static func fingerprint(_ bytes: [UInt8]) -> String {
        bytes.map { Hex.string([$0], uppercase: true) }.joined(separator: ":")
    }
}
