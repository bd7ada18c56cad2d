import AppFlipCore
import Testing

/// The caller family's generator: every variant differs from the allowed caller under exact comparison and is
/// a caller Android could have (a package it installs, fingerprints of its one spelling).
@Suite struct AndroidCallerFamilyTests {
    static let key = Array(repeating: "AB", count: 32).joined(separator: ":")

    /// Callers of every shape the generator must handle: Google's apps, a two-segment package, digits and
    /// underscores, upper case, one near Android's length limit, several keys, a key of the generator's own
    /// unrelated ones.
    static let callers: [AndroidCaller] = [
        AndroidCaller(package: "com.google.android.googlequicksearchbox", fingerprints: [key]),
        AndroidCaller(package: "com.google.android.apps.chromecast.app", fingerprints: [key]),
        AndroidCaller(package: "com.google.appfliptesttool", fingerprints: [key]),
        AndroidCaller(package: "a.b", fingerprints: [key]),
        AndroidCaller(package: "com.example_1.app2", fingerprints: [key]),
        AndroidCaller(package: "Com.Example.App", fingerprints: [key]),
        AndroidCaller(package: "com.x", fingerprints: [key]),
        AndroidCaller(package: "com." + String(repeating: "a", count: 250), fingerprints: [key]),
        AndroidCaller(
            package: "com.google.android.googlequicksearchbox",
            fingerprints: [key, Array(repeating: "11", count: 32).joined(separator: ":"), Array(repeating: "22", count: 32).joined(separator: ":")]
        ),
    ]

    @Test(arguments: callers)
    func everyLookalikePackageDiffersAndCanBeInstalled(caller: AndroidCaller) {
        let variants = AndroidCallerFamily.lookalikePackages(of: caller)
        #expect(!variants.isEmpty)
        for variant in variants {
            #expect(variant.caller.package != caller.package, "\(variant.label)")
            #expect(!Array(variant.caller.package.utf8).elementsEqual(caller.package.utf8), "\(variant.label)")
            #expect(AndroidPackageName.isValid(variant.caller.package), "\(variant.label): \(variant.caller.package)")
            #expect(variant.caller.fingerprints == caller.fingerprints, "a lookalike is signed by the allowed certificates")
        }
        #expect(Set(variants.map(\.caller.package)).count == variants.count, "each lookalike once")
    }

    @Test(arguments: callers)
    func everyOtherKeyDiffersFromEveryAllowedKey(caller: AndroidCaller) {
        let variants = AndroidCallerFamily.otherKeys(of: caller)
        #expect(variants.count >= 3)
        for variant in variants {
            #expect(variant.caller.package == caller.package)
            #expect(!variant.caller.fingerprints.isEmpty)
            for fingerprint in variant.caller.fingerprints {
                #expect(CertificateFingerprint.problem(fingerprint) == nil, "\(variant.label): \(fingerprint)")
                #expect(!caller.fingerprints.contains(fingerprint), "\(variant.label) is an allowed key")
            }
        }
        #expect(Set(variants.map(\.caller.fingerprints)).count == variants.count, "each key set once")
    }

    /// The family holds each kind of lookalike an inexact comparison lets through, for the Google app.
    @Test func theGoogleAppsLookalikesAreEachKind() {
        let google = AndroidCaller(package: "com.google.android.googlequicksearchbox", fingerprints: [Self.key])
        let packages = AndroidCallerFamily.lookalikePackages(of: google).map(\.caller.package)
        for expected in [
            "com.google.android.googlequicksearchbox.attacker", "com.google.android.attacker", "com.google.android",
            "com.google.android.googlequicksearchboxx", "com.google.android.googlequicksearchbo", "com.google.android.googlequick",
            "attacker.com.google.android.googlequicksearchbox", "COM.GOOGLE.ANDROID.GOOGLEQUICKSEARCHBOX",
            "Com.Google.Android.Googlequicksearchbox", "com.google.android.googlequicksearchboy",
            "com.google.android_googlequicksearchbox",
        ] {
            #expect(packages.contains(String(expected)), "\(expected)")
        }
        #expect(packages.contains { $0.utf8.count == AndroidPackageName.maxBytes })
        let keys = AndroidCallerFamily.otherKeys(of: google).map(\.caller.fingerprints)
        #expect(keys.contains([String(Self.key.dropLast(2)) + "AA"]), "the last byte changed")
        #expect(keys.contains(["AA" + String(Self.key.dropFirst(2))]), "the first byte changed")
        #expect(keys.contains { $0.count == 2 }, "two unrelated keys")
    }
}
