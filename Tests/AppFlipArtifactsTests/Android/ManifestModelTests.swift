import AppFlipArtifacts
import AppFlipCore
import AppFlipTestSupport
import Foundation
import Testing

/// What the manifest reader makes of the test artifacts, held against the manifests' own text: the model,
/// and the identity that equals the same app written by hand as an app file's `android` object.
@Suite("The Android manifest model")
struct ManifestModelTests {
    /// The partner app of Tests/AndroidArtifacts/project, as its `android` object in an app file would write it,
    /// with the fingerprint filled in.
    static func handWritten(fingerprint: String) throws -> AndroidIdentity {
        let json = """
            {"package": "com.example.partner", "fingerprints": ["\(fingerprint)"],
             "activities": [
               {"name": ".MainActivity", "actions": ["android.intent.action.MAIN"], "categories": ["android.intent.category.LAUNCHER"], "exported": true},
               {"name": ".AppFlipActivity", "actions": ["com.example.partner.APP_FLIP"], "categories": ["android.intent.category.DEFAULT"], "exported": true}],
             "intentFilters": [
               {"autoVerify": true, "actions": ["android.intent.action.VIEW"],
                "categories": ["android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"],
                "data": [{"scheme": "https"}, {"host": "links.example.com"}, {"host": "flip.example.com", "port": 8443},
                         {"path": "/flip"}, {"pathPrefix": "/app/"}, {"pathPattern": "/item/.*/details"}]},
               {"autoVerify": false, "actions": ["android.intent.action.VIEW"],
                "categories": ["android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"], "data": [{"scheme": "https"}]}]}
            """
        return try JSONDecoder().decode(AndroidIdentity.self, from: Data(json.utf8))
    }

    @Test("an APK's identity equals the same app written by hand")
    func apkIdentity() async throws {
        let artifact = try AndroidArtifactReader.readAPK(try ArtifactArchive(path: try await AndroidTestArtifacts.path("app-all.apk")))
        let fingerprint = try await APKSignerTests.fingerprint("old.cer")
        #expect(artifact.identity() == (try Self.handWritten(fingerprint: fingerprint)))
    }

    @Test("the manifest: version, SDK levels, components, exported, the alias, the resolutions")
    func apkManifest() async throws {
        let manifest = try AndroidArtifactReader.readAPK(try ArtifactArchive(path: try await AndroidTestArtifacts.path("app-all.apk"))).manifest
        #expect(manifest.package == "com.example.partner" && manifest.versionCode == 42 && manifest.versionName == "4.2")
        #expect(manifest.minSDK == .level(24) && manifest.targetSDK == .level(33))
        #expect(manifest.components.map(\.name) == [".MainActivity", ".AppFlipActivity", "com.example.partner.LinkActivity", ".LinkAlias"])
        let alias = manifest.components[3]
        #expect(alias.kind == .activityAlias && !alias.enabled && alias.targetActivity == "com.example.partner.LinkActivity")
        #expect(manifest.verificationHosts == ["links.example.com", "flip.example.com", "alias.example.com"])
        let link = try #require(manifest.resolutions.first { $0.reference == "@string/link_host" })
        #expect(link.value == "links.example.com" && link.configuration == "default" && link.dropped == nil)
        let localized = try #require(manifest.resolutions.first { $0.reference == "@string/localized_host" })
        #expect(localized.value == nil && localized.otherConfigurations == ["fr"] && localized.dropped != nil)
        #expect(manifest.notes.contains { $0.severity == .warning && $0.element.hasSuffix("intent-filter[2]") })
    }

    @Test("the API 31 path kinds, compiled against their public ids")
    func newPathKinds() async throws {
        let manifest = try AndroidArtifactReader.readAPK(try ArtifactArchive(path: try await AndroidTestArtifacts.path("paths.apk"))).manifest
        let filter = try #require(manifest.components.first?.filters.first?.filter)
        #expect(
            filter.paths == [
                try PatternMatcher(".pdf", kind: .suffix), try PatternMatcher("/order/[0-9]+", kind: .advancedGlob),
                try PatternMatcher("/exact", kind: .literal),
            ]
        )
        #expect(filter.matchesData(try #require(AndroidURI("https://paths.example.com/order/12"))))
        #expect(!filter.matchesData(try #require(AndroidURI("https://paths.example.com/order/x"))))
    }

    @Test("a bundle: the protobuf manifest, resolved through resources.pb")
    func bundle() async throws {
        let artifact = try AndroidArtifactReader.readAAB(try ArtifactArchive(path: try await AndroidTestArtifacts.path("app.aab")))
        let manifest = artifact.manifest
        #expect(artifact.kind == .aab && manifest.form == .proto && artifact.resourceTable == "base/resources.pb")
        #expect(manifest.package == "com.example.partner" && manifest.versionCode == 43 && manifest.versionName == "4.3")
        #expect(
            manifest.resolutions.first { $0.reference == "string/version_name" || $0.reference == "@string/version_name" }?.otherConfigurations == [
                "v31"
            ]
        )
        #expect(manifest.targetSDK == .level(34))
        let link = try #require(manifest.components.first { $0.name == ".LinkActivity" }?.filters.first?.filter)
        #expect(link.authorities == [IntentFilter.Authority(host: "links.example.com")] && link.autoVerify)
        #expect(link.paths.map(\.kind) == [.suffix, .advancedGlob, .prefix])
        #expect(artifact.identity().activities.map(\.name) == [".AppFlipActivity"])
    }

    @Test("an activity is known by its filter with CATEGORY_DEFAULT, not by a launcher filter before it")
    func activityByItsDefaultFilter() throws {
        let xml = """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.partner">
              <application>
                <activity android:name=".MainActivity" android:exported="true">
                  <intent-filter>
                    <action android:name="android.intent.action.MAIN"/>
                    <category android:name="android.intent.category.LAUNCHER"/>
                  </intent-filter>
                  <intent-filter>
                    <action android:name="com.example.partner.APP_FLIP"/>
                    <category android:name="android.intent.category.DEFAULT"/>
                  </intent-filter>
                </activity>
                <activity android:name=".Launcher" android:exported="true">
                  <intent-filter>
                    <action android:name="android.intent.action.MAIN"/>
                    <category android:name="android.intent.category.LAUNCHER"/>
                  </intent-filter>
                </activity>
              </application>
            </manifest>
            """
        let artifact = try AndroidArtifactReader.readManifest(Array(xml.utf8), kind: .sourceManifest, file: "AndroidManifest.xml")
        let activities = artifact.identity().activities
        #expect(activities.map(\.name) == [".MainActivity", ".Launcher"])
        #expect(activities.first?.actions == ["com.example.partner.APP_FLIP"], "\(activities)")
        #expect(activities.last?.actions == ["android.intent.action.MAIN"], "\(activities)")
    }

    @Test("a source manifest reads as its compiled form, its references left to the build")
    func sourceManifest() async throws {
        let path = try await AndroidTestArtifacts.path("source-AndroidManifest.xml")
        let source = try AndroidArtifactReader.readManifest(
            Array(try Data(contentsOf: URL(fileURLWithPath: path))),
            kind: .sourceManifest,
            file: path
        )
        let binaryPath = try await AndroidTestArtifacts.path("binary-AndroidManifest.xml")
        let binary = try AndroidArtifactReader.readManifest(
            Array(try Data(contentsOf: URL(fileURLWithPath: binaryPath))),
            kind: .binaryManifest,
            file: binaryPath
        )
        #expect(source.manifest.components.map(\.className) == binary.manifest.components.map(\.className))
        #expect(source.manifest.components.map(\.exported) == binary.manifest.components.map(\.exported))
        #expect(source.manifest.targetSDK == .level(33) && source.manifest.versionCode == 42)
        let hostNote = source.manifest.notes.first { $0.message.contains("@string/link_host") }
        #expect(hostNote?.severity == .unknown)
        // Without resources.arsc the compiled manifest's references stay unresolved too.
        #expect(binary.manifest.notes.contains { $0.severity == .unknown && $0.message.contains("no resource table") })
    }
}
