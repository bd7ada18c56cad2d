public import AppFlipCore

/// What an Android manifest declares for App Flip and App Links, read as Android's package parser reads it
/// (AOSP `services/core/java/com/android/server/pm/pkg/parsing/ParsingPackageUtils.java`,
/// `pkg/component/ParsedActivityUtils.java`, `ParsedIntentInfoUtils.java`), from any of its forms.
public struct AndroidManifest: Sendable, Hashable {
    /// The form the manifest was read from.
    public enum Form: String, Sendable, Hashable, Codable {
        /// Binary XML, as in an APK.
        case binary
        /// aapt2's protobuf XML, as in an Android App Bundle.
        case proto
        /// Source text, as in a project: before the manifest merger and resource compilation.
        case source
    }

    public var form: Form
    /// `<manifest package>`: the application id.
    public var package: String
    /// `versionCodeMajor` << 32 | `versionCode`, as `PackageInfo.getLongVersionCode`.
    public var versionCode: Int64?
    public var versionName: String?
    /// `<uses-sdk minSdkVersion>`: a level, or a preview's codename; 1 when absent.
    public var minSDK: SDKVersion
    /// `<uses-sdk targetSdkVersion>`: the minimum when absent.
    public var targetSDK: SDKVersion
    /// The `<activity>` and `<activity-alias>` elements of `<application>`, in order.
    public var components: [ManifestComponent]
    /// Every attribute read through a resource reference, with the value taken.
    public var resolutions: [ResourceResolution]
    /// What Android would refuse or silently drop, and what this reading could not know.
    public var notes: [ManifestNote]

    /// Every host Android 12+ verifies for the app, each once, in filter order: from every activity and
    /// alias, enabled or not, as `DomainVerificationCollector` collects them from the parsed activities.
    public var verificationHosts: [String] {
        var hosts: [String] = []
        for filter in components.flatMap(\.filters) where filter.mimeTypes.isEmpty {
            for host in filter.filter.verificationHosts where !hosts.contains(host) { hosts.append(host) }
        }
        return hosts
    }

    public init(
        form: Form,
        package: String,
        versionCode: Int64? = nil,
        versionName: String? = nil,
        minSDK: SDKVersion = .level(1),
        targetSDK: SDKVersion = .level(1),
        components: [ManifestComponent] = [],
        resolutions: [ResourceResolution] = [],
        notes: [ManifestNote] = []
    ) {
        self.form = form
        self.package = package
        self.versionCode = versionCode
        self.versionName = versionName
        self.minSDK = minSDK
        self.targetSDK = targetSDK
        self.components = components
        self.resolutions = resolutions
        self.notes = notes
    }
}

/// An SDK level, or a preview platform's codename (`peekValue` gives a string: `minSdkVersion="VanillaIceCream"`).
public enum SDKVersion: Sendable, Hashable, CustomStringConvertible {
    case level(Int)
    case codename(String)

    /// The level, with a codename counted as newer than every released level.
    public var level: Int {
        switch self {
        case .level(let level): level
        case .codename: 10_000
        }
    }

    public var description: String {
        switch self {
        case .level(let level): String(level)
        case .codename(let name): name
        }
    }
}

/// An `<activity>` or `<activity-alias>`.
public struct ManifestComponent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case activity
        case activityAlias = "activity-alias"
    }

    public var kind: Kind
    /// `android:name` as written.
    public var name: String
    /// The fully qualified class name (`ParsingUtils.buildClassName`).
    public var className: String
    /// An alias's `android:targetActivity`.
    public var targetActivity: String?
    /// Whether other apps may start it: the declared `android:exported`, else whether it has intent filters.
    public var exported: Bool
    /// `android:exported` as declared, nil when absent.
    public var exportedDeclared: Bool?
    /// `android:enabled`, and the application's.
    public var enabled: Bool
    /// Its `<intent-filter>`s, in order, without those Android drops (no action).
    public var filters: [ManifestIntentFilter]
}

/// An `<intent-filter>`: the core's ``IntentFilter`` (actions, categories, `autoVerify`, schemes, hosts and
/// ports, paths in all five PatternMatcher kinds), and the parts of `<data>` it does not match links by.
public struct ManifestIntentFilter: Sendable, Hashable {
    public var filter: IntentFilter
    /// `android:mimeType`s: a filter with one never matches a link, which carries no type.
    public var mimeTypes: [String]
    /// `android:ssp`, `sspPrefix`, `sspPattern`, `sspAdvancedPattern`, `sspSuffix`.
    public var schemeSpecificParts: [PatternMatcher]
}

/// An attribute whose value came through a resource: which resource, which value was taken and from which
/// configuration, or why Android takes none.
public struct ResourceResolution: Sendable, Hashable {
    /// The element, as a path: `manifest/application/activity[.LinkActivity]/intent-filter[1]/data[2]`.
    public var element: String
    /// `android:host`.
    public var attribute: String
    /// `@string/host`, or `@0x7f0b0001` when the table does not name it.
    public var reference: String
    public var id: UInt32?
    /// The value taken, or nil when Android takes none (see ``dropped``) or it could not be resolved.
    public var value: String?
    /// The configuration the value was taken from: `default`, or the only one defining it.
    public var configuration: String?
    /// The other configurations defining the resource.
    public var otherConfigurations: [String]
    /// Why Android reads no value, when it does not: the resource varies by configuration and the attribute
    /// is read with `TypedArray.getNonConfigurationString`.
    public var dropped: String?
}

/// Something Android would refuse or drop, or that this reading cannot know, at an element.
public struct ManifestNote: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable {
        /// Android refuses to install the package.
        case installFails = "install-fails"
        /// Android installs it and ignores the declaration.
        case ignored
        /// Android accepts it, with an effect the author almost certainly did not mean.
        case warning
        /// What this reading could not establish.
        case unknown
    }

    public var severity: Severity
    public var element: String
    public var message: String

    public var description: String { "\(severity.rawValue): \(element): \(message)" }
}
