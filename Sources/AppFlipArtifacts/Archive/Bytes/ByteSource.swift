/// An artifact's bytes, read where they lie, by offset: a file on disk (``FileBytes``) or bytes already in
/// memory (``MemoryBytes``: a test's or a fuzzer's input, an entry inflated from an archive). The readers ask
/// only for the ranges they need (a zip's end records and central directory, a Mach-O's load commands and
/// signature), so an artifact is never read whole.
public protocol ByteSource: Sendable {
    /// What errors name: the file's path, or an archive entry's `ARCHIVE!ENTRY`.
    var name: String { get }
    /// The size in bytes.
    var count: Int { get }
    /// The `length` bytes at `offset`, which the caller has checked lie within `count`.
    func read(at offset: Int, count length: Int) throws(ArtifactError) -> [UInt8]
}

extension ByteSource {
    /// The bytes of `range`, or an ``ArtifactError`` naming `structure` when they run past the end.
    public func read(_ range: Range<Int>, for structure: String) throws(ArtifactError) -> [UInt8] {
        guard range.lowerBound >= 0, range.upperBound <= count else {
            throw ArtifactError(structure, file: name, offset: range.lowerBound, "\(range.count) bytes needed, but the file ends at \(count)")
        }
        return try read(at: range.lowerBound, count: range.count)
    }

    /// Every byte, for a source whose size the caller has bounded.
    public func readAll() throws(ArtifactError) -> [UInt8] { try read(at: 0, count: count) }
}
