/// An app bundle's Info.plist (XML or binary): the keys that name the app and its executable. Source: Apple's
/// Information Property List reference (`CFBundleIdentifier`, `CFBundleExecutable`, `CFBundleShortVersionString`,
/// `CFBundleVersion`, `MinimumOSVersion`).
public struct InfoPlist: Sendable, Hashable {
    /// `CFBundleIdentifier`: the bundle part of the app ID.
    public let bundleIdentifier: String?
    /// `CFBundleExecutable`: the main executable's file name in the bundle.
    public let executable: String?
    /// `CFBundleShortVersionString`.
    public let shortVersion: String?
    /// `CFBundleVersion`.
    public let bundleVersion: String?
    /// `MinimumOSVersion`.
    public let minimumOSVersion: String?
    /// Every key, for what the accessors leave out.
    public let values: [String: PropertyListValue]

    /// Reads the property list in `bytes`, read at `base` in `file`.
    public init(bytes: [UInt8], file: String, base: Int = 0) throws(ArtifactError) {
        self.init(values: try PropertyListReader.readDictionary(bytes, file: file, base: base, what: "an Info.plist"))
    }

    init(values: [String: PropertyListValue]) {
        self.values = values
        self.bundleIdentifier = values["CFBundleIdentifier"]?.string
        self.executable = values["CFBundleExecutable"]?.string
        self.shortVersion = values["CFBundleShortVersionString"]?.string
        self.bundleVersion = values["CFBundleVersion"]?.string
        self.minimumOSVersion = values["MinimumOSVersion"]?.string
    }
}
