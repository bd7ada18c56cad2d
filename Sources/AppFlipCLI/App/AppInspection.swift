import AppFlipArtifacts
import AppFlipCore

/// What `app inspect` reports, in the shape `--json` prints (docs/artifacts.md, "JSON").
struct AppInspection: Encodable {
    struct Certificate: Encodable {
        var sha256: String
        var subject: String?
        var keyAlgorithm: String?
    }

    struct LineageNode: Encodable {
        var sha256: String
        var subject: String?
        var capabilities: [String]
    }

    struct Signer: Encodable {
        var scheme: String
        var name: String?
        var certificate: Certificate
        var chain: [Certificate]
        var minSdk: Int?
        var maxSdk: Int?
        var lineage: [LineageNode]
        var rotationMinSdk: Int?
        var rotationTargetsDevRelease: Bool
        var problems: [String]
    }

    struct Signatures: Encodable {
        var schemes: [String]
        var signers: [Signer]
        /// The keys that sign the app now and the keys it rotated from (the newest platform's view).
        var current: [String]
        var past: [String]
        /// The APK Signing Block's pair IDs, `0x7109871a` …, in order.
        var blockIDs: [String]
    }

    struct Path: Encodable {
        var kind: String
        var pattern: String
    }

    struct Host: Encodable {
        var host: String
        var port: Int?
    }

    struct Filter: Encodable {
        var actions: [String]
        var categories: [String]
        var autoVerify: Bool
        var schemes: [String]
        var hosts: [Host]
        var paths: [Path]
        var mimeTypes: [String]
        var schemeSpecificParts: [Path]
        /// Android 12+ verifies its hosts (autoVerify, VIEW, BROWSABLE, DEFAULT, http/https only).
        var appLink: Bool
        /// It takes web links, verified or not.
        var webLinks: Bool
    }

    struct Component: Encodable {
        var kind: String
        var name: String
        var className: String
        var targetActivity: String?
        var exported: Bool
        var exportedDeclared: Bool?
        var enabled: Bool
        var filters: [Filter]
    }

    struct Resolution: Encodable {
        var element: String
        var attribute: String
        var reference: String
        var value: String?
        var configuration: String?
        var otherConfigurations: [String]
        var dropped: String?
    }

    struct Note: Encodable {
        var severity: String
        var element: String
        var message: String
    }

    /// `android`, as the iOS report says `ios`.
    var platform = "android"
    var file: String
    var kind: String
    var package: String
    var versionCode: Int64?
    var versionName: String?
    var minSdk: String
    var targetSdk: String
    var signatures: Signatures?
    /// For a bundle: why its signature is not the one devices see.
    var uploadKey: String?
    var components: [Component]
    /// Every host Android 12+ verifies for the app, in filter order, disabled components' included.
    var verifiedHosts: [String]
    var resolutions: [Resolution]
    var notes: [Note]
    /// The app as appflipd routes it, in the shape of an app file's `android` object: what the daemon reads when
    /// an app file names the artifact (docs/configuration.md).
    var identity: AndroidIdentity
}
