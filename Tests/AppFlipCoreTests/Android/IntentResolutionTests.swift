import AppFlipCore
import Testing

/// How an intent limited to one package resolves, as Android's activity manager resolves it for
/// `startActivity`, and what an Android identity must be.
@Suite struct IntentResolutionTests {
    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
    static let app = AndroidIdentity(
        package: "com.example.app",
        fingerprints: [fingerprint],
        activities: [
            AndroidActivity(name: ".NoDefault", actions: ["A"], categories: [], exported: true),
            AndroidActivity(name: "com.example.app.Flip", actions: ["A", "B"], exported: true),
            AndroidActivity(name: "Hidden", actions: ["H"], exported: false),
        ]
    )

    @Test func theFirstActivityListingTheActionWithTheDefaultCategoryIsStarted() throws {
        #expect(try Self.app.resolve(action: "A", callerPackage: "com.other").get().className(in: "com.example.app") == "com.example.app.Flip")
        #expect(try Self.app.resolve(action: "B", callerPackage: nil).get().name == "com.example.app.Flip")
    }

    @Test func eachRefusalNamesItsDeclaration() {
        #expect(Self.app.resolve(action: "Z", callerPackage: nil) == .failure(.noActivity(package: "com.example.app", action: "Z")))
        let onlyNoDefault = AndroidIdentity(package: "com.example.app", fingerprints: [Self.fingerprint], activities: [Self.app.activities[0]])
        #expect(
            onlyNoDefault.resolve(action: "A", callerPackage: nil)
                == .failure(.missingDefaultCategory(package: "com.example.app", action: "A", activity: "com.example.app.NoDefault"))
        )
        #expect(
            Self.app.resolve(action: "H", callerPackage: "com.other")
                == .failure(.notExported(package: "com.example.app", activity: "com.example.app.Hidden"))
        )
        #expect(
            Self.app.resolve(action: "H", callerPackage: nil)
                == .failure(.notExported(package: "com.example.app", activity: "com.example.app.Hidden"))
        )
    }

    @Test func anActivityThatIsNotExportedIsStartedByItsOwnApp() throws {
        #expect(try Self.app.resolve(action: "H", callerPackage: "com.example.app").get().name == "Hidden")
    }

    @Test(arguments: [
        ("", "must be a non-empty package name, e.g. com.example.app"),
        ("app", "\"app\" is not a package name: it must have at least one '.' separator"),
        ("com.1app", "\"com.1app\" is not a package name: bad character '1'"),
        ("_com.app", "\"_com.app\" is not a package name: bad character '_'"),
        ("com.ex-ample", "\"com.ex-ample\" is not a package name: bad character '-'"),
        ("com.exämple", "\"com.exämple\" is not a package name: bad character 'non-ASCII'"),
    ])
    func aPackageNameFollowsThePackageParser(name: String, problem: String) {
        #expect(AndroidPackageName.problem(with: name) == problem)
    }

    @Test func validPackageNames() {
        // The parser's own quirks: a `.` may follow a `.`, and a name may end with one.
        for name in ["com.example.app", "a.b", "com.Example_1.x2", "com..app", "com.example."] {
            #expect(AndroidPackageName.problem(with: name) == nil, "\(name)")
        }
    }

    @Test(arguments: [
        Array(repeating: "ab", count: 32).joined(separator: ":"),
        Array(repeating: "AB", count: 31).joined(separator: ":"),
        Array(repeating: "AB", count: 32).joined(separator: ""),
        Array(repeating: "AB", count: 32).joined(separator: "-"),
        Array(repeating: "AG", count: 32).joined(separator: ":"),
    ])
    func aFingerprintIsThirtyTwoUpperCaseHexPairsWithColons(fingerprint: String) {
        #expect(CertificateFingerprint.problem(fingerprint) != nil)
        #expect(CertificateFingerprint.problem(Self.fingerprint) == nil)
    }

    @Test func anIdentityNamesTheFieldAtFault() {
        var identity = Self.app
        identity.fingerprints = []
        #expect(identity.problem()?.field == "fingerprints")
        identity = Self.app
        identity.activities.append(AndroidActivity(name: ".Flip", actions: ["C"], exported: true))
        #expect(identity.problem() == IntentProblem(field: "activities[3].name", "com.example.app.Flip is declared twice"))
        identity = Self.app
        identity.activities[1].actions[0] = ""
        #expect(identity.problem()?.field == "activities[1].actions[0]")
        #expect(Self.app.problem() == nil)
    }

    @Test func secretExtrasShowTheirLengthOnly() {
        #expect(IntentExtra.string("4/abc").redacted(name: "AUTHORIZATION_CODE") == .string("[redacted:5B]"))
        #expect(IntentExtra.int(42).redacted(name: "AUTH_CODE") == .string("[redacted:2B]"))
        #expect(IntentExtra.stringArray(["ab", "c"]).redacted(name: "TOKENS") == .stringArray(["[redacted:2B]", "[redacted:1B]"]))
        #expect(IntentExtra.int(7).redacted(name: "ERROR_CODE") == .int(7))
        #expect(IntentExtra.string("client").redacted(name: "CLIENT_ID") == .string("client"))
    }

    @Test func theIntentURIIsAndroidsFormWithoutExtras() {
        let intent = Intent(action: "com.example.APP FLIP", package: "com.example.app", extras: ["CLIENT_ID": .string("x")])
        #expect(
            intent.uri(component: ".Flip")
                == "intent:#Intent;action=com.example.APP%20FLIP;package=com.example.app;component=com.example.app/.Flip;end"
        )
        #expect(intent.uri(component: nil) == "intent:#Intent;action=com.example.APP%20FLIP;package=com.example.app;end")
    }
}
