/// One file of a zip archive, as its central directory record describes it (APPNOTE.TXT 4.3.12, with the
/// ZIP64 extra field of 4.5.3).
public struct ZipEntry: Sendable, Hashable {
    public let name: String
    /// The general purpose bit flags; bit 0 is encryption.
    public let flags: UInt16
    /// 0 stored, 8 deflated.
    public let method: UInt16
    public let crc32: UInt32
    public let compressedSize: Int
    public let uncompressedSize: Int
    public let localHeaderOffset: Int
    /// Where the entry's central directory record is, for errors.
    public let recordOffset: Int

    /// Where the entry's name lies in its central directory record, for errors about the name.
    var nameOffset: Int { recordOffset + 46 }
}
