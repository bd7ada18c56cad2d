/// The bounds every archive read keeps, so that a hostile archive costs bounded time and memory: a zip bomb
/// stops at `maxEntryBytes` (or the limit a reader gives for one entry) or at `maxRatio`, a forged central
/// directory at `maxCentralDirectoryBytes` and `maxEntries`.
public struct ArchiveLimits: Sendable, Hashable {
    /// The most bytes one entry may give, unless its reader names another limit (an .ipa's executable, read as
    /// a stream, may be larger; its property lists are smaller).
    public var maxEntryBytes: Int
    /// The most a deflated entry may inflate relative to its compressed size. Deflate reaches about 1032:1 at
    /// most; real manifests, resource tables, property lists and executables stay far below this bound.
    public var maxRatio: Int
    /// The largest central directory read: it is walked through a window, so its size costs no memory; an app
    /// of 100,000 files has about 10 MiB.
    public var maxCentralDirectoryBytes: Int
    /// The most entries an archive may list.
    public var maxEntries: Int
    /// The largest APK Signing Block read.
    public var maxSigningBlockBytes: Int

    public init(
        maxEntryBytes: Int = 32 << 20,
        maxRatio: Int = 200,
        maxCentralDirectoryBytes: Int = 64 << 20,
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
