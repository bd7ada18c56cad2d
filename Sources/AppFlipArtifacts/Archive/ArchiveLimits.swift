/// The bounds every archive read keeps, so that a hostile archive costs bounded time and memory: a zip
/// bomb stops at `maxEntryBytes` or `maxRatio`, a forged central directory at `maxCentralDirectoryBytes`.
public struct ArchiveLimits: Sendable, Hashable {
    /// The most bytes one entry may inflate to (the manifest, resources.arsc, a signature file).
    public var maxEntryBytes: Int
    /// The most an entry may inflate relative to its stored size. Deflate reaches about 1032:1 at most;
    /// real manifests and resource tables stay far below this bound.
    public var maxRatio: Int
    /// The largest central directory read.
    public var maxCentralDirectoryBytes: Int
    /// The most entries an archive may list.
    public var maxEntries: Int
    /// The largest APK Signing Block read.
    public var maxSigningBlockBytes: Int

    public init(
        maxEntryBytes: Int = 32 << 20,
        maxRatio: Int = 200,
        maxCentralDirectoryBytes: Int = 32 << 20,
        maxEntries: Int = 200_000,
        maxSigningBlockBytes: Int = 16 << 20
    ) {
        self.maxEntryBytes = maxEntryBytes
        self.maxRatio = maxRatio
        self.maxCentralDirectoryBytes = maxCentralDirectoryBytes
        self.maxEntries = maxEntries
        self.maxSigningBlockBytes = maxSigningBlockBytes
    }

    /// The defaults.
    public static let standard = ArchiveLimits()
}
