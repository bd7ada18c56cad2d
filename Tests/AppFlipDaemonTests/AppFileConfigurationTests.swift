import AppFlipConfiguration
import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTesting
import Glibc
import Logging
import Testing

/// An `apps.d` file and its `exec` and `builtin` handler configurations load through the one configuration
/// loader: unknown keys refused, errors naming the file and the JSON path of the field.
@Suite struct AppFileConfigurationTests {
    static let association = #"{"applinks":{"details":[{"appIDs":["T.app"],"components":[{"/":"*"}]}]}}"#

    static func app(handler: String, extra: String = "") -> String {
        #"{"appID":"T.app","domains":["applinks:app.test"],"association":\#(association),"handler":\#(handler)\#(extra)}"#
    }

    @Test(arguments: [
        (#"{"builtin":"accept"}"#, ""),
        (#"{"exec":{"command":"/bin/cat","args":["-"],"timeoutSeconds":5}}"#, ""),
    ])
    func aValidAppFileLoads(handler: String, extra: String) throws {
        #expect(try loadError(Self.app(handler: handler, extra: extra)) == nil)
    }

    @Test(arguments: [
        (
            #"{"builtin":"accept"}"#, #","priorty":1"#, "priorty",
            "unknown key; known keys are appID, domains, association, associationFile, handler, priority, android, artifact"
        ),
        (#"{"builtin":"accept"}"#, #","app_id":"T.app""#, "app_id", "renamed; write `appID` (configuration keys are camelCase)"),
        (#"{"exec":{"command":"/bin/cat","timeout":5}}"#, "", "handler.exec.timeout", "unknown key; known keys are command, args, timeoutSeconds"),
        (
            #"{"exec":{"command":"/bin/cat","timeout_seconds":5}}"#, "", "handler.exec.timeout_seconds",
            "renamed; write `timeoutSeconds` (configuration keys are camelCase)"
        ),
        (#"{"exec":{"args":[]}}"#, "", "handler.exec.command", "is required"),
        (#"{"exec":{"command":"/bin/cat","args":["a",2]}}"#, "", "handler.exec.args[1]", "must be a string"),
        (#"{"builtin":"reject"}"#, "", "handler.builtin", "the only built-in handler is \"accept\""),
        (#"{"builtin":{"accept":true}}"#, "", "handler.builtin", "must be a string"),
        (#"{"builtin":"accept"}"#, #","priority":1.5"#, "priority", "must be an integer"),
        (#"{"builtin":"accept"}"#, #","priority":1e30"#, "priority", "must be an integer"),
    ])
    func aBrokenAppFileIsRefusedNamingTheField(handler: String, extra: String, field: String, message: String) throws {
        let error = try #require(try loadError(Self.app(handler: handler, extra: extra)))
        #expect(error.file.hasSuffix("/apps.d/app.json"), "\(error)")
        #expect(error.field == field, "\(error)")
        #expect(error.message == message, "\(error)")
    }

    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    static func androidApp(_ android: String, domains: Bool = false) -> String {
        let links = domains ? #""domains":["applinks:app.test"],"association":\#(association),"# : ""
        return #"{"appID":"T.app",\#(links)"handler":{"builtin":"accept"},"android":\#(android)}"#
    }

    @Test func anAndroidOnlyAppFileNeedsNoDomainsAndOneWithLinksKeepsThem() throws {
        let android =
            #"{"package":"com.example.app","fingerprints":["\#(Self.fingerprint)"],"activities":[{"name":".Flip","actions":["A"],"exported":true}]}"#
        #expect(try loadError(Self.androidApp(android)) == nil)
        #expect(try loadError(Self.androidApp(android, domains: true)) == nil)
    }

    @Test(arguments: [
        (
            #"{"package":"com.example.app","fingerprints":["FP"],"activities":[{"name":".Flip","actions":["A"],"exproted":true}]}"#,
            "android.activities[0].exproted", "unknown key; known keys are name, actions, categories, exported"
        ),
        (
            #"{"package":"com.example.app","fingerprints":["FP"],"intentFilter":[]}"#, "android.intentFilter",
            "unknown key; known keys are package, fingerprints, activities, intentFilters, assetLinks"
        ),
        (
            #"{"package":"com.example.app","fingerprints":["FP"],"intentFilters":[{"autoVerify":true,"actions":["V"],"data":[{"scheme":"https","host":"a.test","pathPrefx":"/x"}]}]}"#,
            "android.intentFilters[0].data[0].pathPrefx",
            "unknown key; known keys are scheme, host, port, path, pathPrefix, pathPattern, pathAdvancedPattern, pathSuffix"
        ),
        (
            #"{"package":"com.example.app","fingerprints":["FP"],"intentFilters":[{"verify":true,"actions":["V"],"data":[{"scheme":"https"}]}]}"#,
            "android.intentFilters[0].verify", "unknown key; known keys are autoVerify, actions, categories, data"
        ),
        (
            #"{"package":"com.example.app","fingerprints":["FP"],"intentFilters":[{"actions":["V"],"data":[{"scheme":"https","port":8443}]}]}"#,
            "android.intentFilters[0].data[0].port",
            "is invalid: a port counts only with a host in the same <data> element (IntentFilter.addDataAuthority)"
        ),
        (
            #"{"package":"com.example.app","fingerprints":["FP"],"intentFilters":[{"actions":["V"],"data":[{"host":"a.test"}]}]}"#,
            "android.intentFilters[0].data", "is invalid: must name at least one scheme (https)"
        ),
        (
            #"{"package":"com.example.app","fingerprints":["FP"],"intentFilters":[{"actions":["V"],"data":[{"scheme":"https","host":"a.test","pathAdvancedPattern":"/[a"}]}]}"#,
            "android.intentFilters[0].data[0].pathAdvancedPattern", "PatternMatcher"
        ),
        (
            #"{"package":"com.example.app","fingerprints":["FP"],"intentFilters":[{"data":[{"scheme":"https"}]}]}"#,
            "android.intentFilters[0].actions", "is required"
        ),
        (
            #"{"package":"com.example.app","fingerprints":["FP"],"assetLinks":{"a.test":"missing.json"}}"#, "android.assetLinks.a.test",
            "no intent filter asks Android to verify a.test: an autoVerify filter with VIEW, BROWSABLE, DEFAULT and only http/https "
                + "schemes does (before Android 12, so does any web filter of an app that has one)"
        ),
        (
            #"{"package":"com.example.app","fingerprints":["FP"],"activities":[{"name":".Flip","actions":["A"]}]}"#, "android.activities[0].exported",
            "is required"
        ),
        (
            #"{"package":"example","fingerprints":["FP"]}"#, "android.package",
            "is invalid: \"example\" is not a package name: it must have at least one '.' separator"
        ),
        (
            #"{"package":"com.example.app","fingerprints":["ab:cd"]}"#, "android.fingerprints[0]",
            "is invalid: the fingerprint is 2 bytes; a SHA-256 fingerprint is 32"
        ),
        (
            #"{"package":"com.example.app","fingerprints":[]}"#, "android.fingerprints",
            "is invalid: must list at least one signing certificate fingerprint"
        ),
    ])
    func aBrokenAndroidIdentityIsRefusedNamingTheField(android: String, field: String, message: String) throws {
        let error = try #require(try loadError(Self.androidApp(android.replacing("\"FP\"", with: "\"\(Self.fingerprint)\""))))
        #expect(error.field == field, "\(error)")
        if message == "PatternMatcher" {
            #expect(error.message.hasPrefix("is invalid: PatternMatcher refuses it: "), "\(error)")
        } else {
            #expect(error.message == message, "\(error)")
        }
    }

    @Test func twoAppFilesMayNotBeTheSamePackage() throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        mkdir(directory + "/apps.d", 0o755)
        let android = #"{"package":"com.example.app","fingerprints":["\#(Self.fingerprint)"]}"#
        try TestDirectory.write(Self.androidApp(android), to: directory + "/apps.d/a.json", mode: 0o644)
        try TestDirectory.write(Self.androidApp(android).replacing("T.app", with: "T.other"), to: directory + "/apps.d/b.json", mode: 0o644)
        var configuration = DaemonConfiguration()
        configuration.socket = directory + "/appflipd.sock"
        configuration.appsDirectory = directory + "/apps.d"
        let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        #expect(
            throws: ConfigurationError(
                file: directory + "/apps.d/b.json",
                field: "android.package",
                "com.example.app is already the package of T.app in \(directory)/apps.d/a.json"
            )
        ) {
            _ = try DaemonService(configuration: configuration, listener: .path(configuration.socket!), logger: noLogs)
        }
    }

    @Test func aUIDKeyOfAndroidPackagesMustBeAUID() throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(#"{"claimPolicy":{"androidPackages":{"root":["com.example.app"]}}}"#, to: directory + "/appflipd.json", mode: 0o644)
        #expect(
            throws: ConfigurationError(
                file: directory + "/appflipd.json",
                field: "claimPolicy.androidPackages",
                "\"root\" is not a uid: the keys are uids in decimal"
            )
        ) {
            try DaemonConfiguration.load(from: directory + "/appflipd.json")
        }
        try TestDirectory.write(
            #"{"claimPolicy":{"androidPackages":{"0":["*"],"1000":["com.example.app"]}}}"#,
            to: directory + "/appflipd.json",
            mode: 0o644
        )
        #expect(
            try DaemonConfiguration.load(from: directory + "/appflipd.json").claimPolicy.androidPackages == [0: ["*"], 1000: ["com.example.app"]]
        )
    }

    @Test(arguments: [
        (
            #"{"android":{"generation":13}}"#, "android.generation",
            "is invalid: must be 11 (Android 6 to 11), 12 (12 to 14) or 15 (15 and later), not 13"
        ),
        (#"{"android":{"verifier":"aosp"}}"#, "android.verifier", "is invalid: must be google or statementService, not \"aosp\""),
        (#"{"android":{"verfier":"google"}}"#, "android.verfier", "unknown key; known keys are verifier, generation"),
    ])
    func aBrokenAndroidSettingIsRefusedNamingTheField(json: String, field: String, message: String) throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(json, to: directory + "/appflipd.json", mode: 0o644)
        #expect(throws: ConfigurationError(file: directory + "/appflipd.json", field: field, message)) {
            try DaemonConfiguration.load(from: directory + "/appflipd.json")
        }
    }

    @Test func theAndroidSettingsDefaultToGoogleOnAndroid15AndThePlatformToIOS() throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(#"{}"#, to: directory + "/appflipd.json", mode: 0o644)
        let defaults = try DaemonConfiguration.load(from: directory + "/appflipd.json")
        #expect(defaults.platform == .ios)
        #expect(defaults.android.verifier == .google)
        #expect(defaults.android.generation == .android15)
        try TestDirectory.write(
            #"{"platform":"android","android":{"verifier":"statementService","generation":11}}"#,
            to: directory + "/appflipd.json",
            mode: 0o644
        )
        let set = try DaemonConfiguration.load(from: directory + "/appflipd.json")
        #expect(set.platform == .android)
        #expect(set.android.verifier == .statementService)
        #expect(set.android.generation == .android11AndEarlier)
    }

    @Test func anUnknownClaimPolicyKeyIsRefused() throws {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        try TestDirectory.write(#"{"claimPolicy":{"overrideUIDs":[],"registerUids":[0]}}"#, to: directory + "/appflipd.json", mode: 0o644)
        #expect(
            throws: ConfigurationError(
                file: directory + "/appflipd.json",
                field: "claimPolicy.registerUids",
                "renamed; write `registerUIDs` (configuration keys are camelCase)"
            )
        ) {
            try DaemonConfiguration.load(from: directory + "/appflipd.json")
        }
    }

    /// Loads `appFile` as the daemon does at start; the configuration error, if any.
    private func loadError(_ appFile: String) throws -> ConfigurationError? {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        mkdir(directory + "/apps.d", 0o755)
        try TestDirectory.write(appFile, to: directory + "/apps.d/app.json", mode: 0o644)
        var configuration = DaemonConfiguration()
        configuration.socket = directory + "/appflipd.sock"
        configuration.appsDirectory = directory + "/apps.d"
        let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            _ = try DaemonService(configuration: configuration, listener: .path(configuration.socket!), logger: noLogs)
            return nil
        } catch {
            return error
        }
    }
}
