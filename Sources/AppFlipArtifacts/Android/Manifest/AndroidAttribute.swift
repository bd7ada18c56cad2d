/// The framework attributes the manifest reader reads, with their resource ids (AOSP
/// `core/res/res/values/public-staging.xml` and `public-final.xml`; `aapt dump resources framework-res.apk`).
/// Android's `obtainAttributes` matches a compiled attribute by its id alone, so a compiled manifest is read
/// by id, a source one by name in the `android` namespace.
public struct AndroidAttribute: Sendable, Hashable {
    public let name: String
    public let id: UInt32

    public static let namespace = "http://schemas.android.com/apk/res/android"

    public static let name = AndroidAttribute(name: "name", id: 0x0101_0003)
    public static let enabled = AndroidAttribute(name: "enabled", id: 0x0101_000e)
    public static let exported = AndroidAttribute(name: "exported", id: 0x0101_0010)
    public static let mimeType = AndroidAttribute(name: "mimeType", id: 0x0101_0026)
    public static let scheme = AndroidAttribute(name: "scheme", id: 0x0101_0027)
    public static let host = AndroidAttribute(name: "host", id: 0x0101_0028)
    public static let port = AndroidAttribute(name: "port", id: 0x0101_0029)
    public static let path = AndroidAttribute(name: "path", id: 0x0101_002a)
    public static let pathPrefix = AndroidAttribute(name: "pathPrefix", id: 0x0101_002b)
    public static let pathPattern = AndroidAttribute(name: "pathPattern", id: 0x0101_002c)
    public static let targetActivity = AndroidAttribute(name: "targetActivity", id: 0x0101_0202)
    public static let minSdkVersion = AndroidAttribute(name: "minSdkVersion", id: 0x0101_020c)
    public static let versionCode = AndroidAttribute(name: "versionCode", id: 0x0101_021b)
    public static let versionName = AndroidAttribute(name: "versionName", id: 0x0101_021c)
    public static let targetSdkVersion = AndroidAttribute(name: "targetSdkVersion", id: 0x0101_0270)
    public static let ssp = AndroidAttribute(name: "ssp", id: 0x0101_03e3)
    public static let sspPrefix = AndroidAttribute(name: "sspPrefix", id: 0x0101_03e4)
    public static let sspPattern = AndroidAttribute(name: "sspPattern", id: 0x0101_03e5)
    public static let autoVerify = AndroidAttribute(name: "autoVerify", id: 0x0101_04ee)
    public static let versionCodeMajor = AndroidAttribute(name: "versionCodeMajor", id: 0x0101_0576)
    /// API 31.
    public static let pathSuffix = AndroidAttribute(name: "pathSuffix", id: 0x0101_061e)
    public static let sspSuffix = AndroidAttribute(name: "sspSuffix", id: 0x0101_061f)
    public static let pathAdvancedPattern = AndroidAttribute(name: "pathAdvancedPattern", id: 0x0101_0620)
    public static let sspAdvancedPattern = AndroidAttribute(name: "sspAdvancedPattern", id: 0x0101_0621)
}
