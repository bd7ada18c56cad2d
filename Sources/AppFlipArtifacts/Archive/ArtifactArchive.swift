/// A zip archive (an APK, an AAB, an .ipa) opened for reading a few entries: its central directory is read
/// where it lies and checked once (``ZipDirectory``), and each entry asked for is read from its own bytes,
/// inflated within ``ArchiveLimits``; nothing else of the archive is read.
public struct ArtifactArchive: Sendable {
    public let directory: ZipDirectory
    public let limits: ArchiveLimits

    /// Opens the archive at `path`.
    public init(path: String, limits: ArchiveLimits = .standard) throws(ArtifactError) {
        try self.init(source: try FileBytes(path: path), limits: limits)
    }

    /// Opens an archive held in memory (a test's or a fuzzer's), named `file` in errors.
    public init(bytes: [UInt8], file: String, limits: ArchiveLimits = .standard) throws(ArtifactError) {
        try self.init(source: MemoryBytes(name: file, bytes: bytes), limits: limits)
    }

    /// Opens the archive `source` holds.
    public init(source: some ByteSource, limits: ArchiveLimits = .standard) throws(ArtifactError) {
        self.directory = try ZipDirectory(source: source, limits: limits)
        self.limits = limits
    }

    /// The archive's bytes.
    public var source: any ByteSource { directory.source }

    /// What errors name the archive by: its path.
    public var file: String { source.name }

    /// What errors name an entry by: `ARCHIVE!ENTRY`.
    public func file(of entry: ZipEntry) -> String { "\(file)!\(entry.name)" }

    /// Whether the archive has an entry of that name.
    public func contains(_ name: String) throws(ArtifactError) -> Bool { try directory.entry(named: name) != nil }

    /// The bytes of the entry named `name`, or nil when there is none; at most `limit` bytes
    /// (``ArchiveLimits/maxEntryBytes`` by default).
    public func read(_ name: String, limit: Int? = nil) throws(ArtifactError) -> [UInt8]? {
        guard let entry = try directory.entry(named: name) else { return nil }
        return try read(entry, limit: limit)
    }
}
