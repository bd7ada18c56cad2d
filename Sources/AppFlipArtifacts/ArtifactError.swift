/// Why an artifact could not be read: the structure that broke, where, and what was wrong. Every reader of
/// `AppFlipArtifacts` throws this, so that a hostile file gets one clear, structured error in bounded time.
public struct ArtifactError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The structure being read, as its format names it: `zip central directory`, `APK Signing Block`,
    /// `binary XML string pool`, `resources.arsc`, `Mach-O load command`, `CMS SignedData`, `property list`.
    public let structure: String
    /// The byte offset within `file` where the problem was found, when it has one.
    public let offset: Int?
    /// The file, or the archive entry (`base/manifest/AndroidManifest.xml`), being read.
    public let file: String
    /// What was wrong, in users' words.
    public let message: String

    public init(_ structure: String, file: String, offset: Int? = nil, _ message: String) {
        self.structure = structure
        self.file = file
        self.offset = offset
        self.message = message
    }

    /// `FILE: STRUCTURE at offset N: MESSAGE`.
    public var description: String {
        "\(file): \(structure)\(offset.map { " at offset \($0)" } ?? ""): \(message)"
    }
}
