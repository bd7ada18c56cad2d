/// The rule for an archive entry's name: a relative path that stays inside the archive. A name with a `..`
/// segment or an absolute path is refused whatever the entry holds, since any reader that writes it out (an
/// unzip, a build step) would escape its folder ("zip slip").
enum EntryName {
    /// Why `name`, read from `bytes`, is refused, or nil.
    static func problem(_ name: String, bytes: some Collection<UInt8>) -> String? {
        if name.isEmpty { return "an empty name" }
        if bytes.contains(0) { return "a NUL byte in the name" }
        if name.hasPrefix("/") || name.hasPrefix("\\") { return "an absolute path, which climbs out of the archive" }
        let utf8 = Array(name.utf8)
        if utf8.count >= 2, utf8[1] == UInt8(ascii: ":"), (utf8[0] | 0x20) >= UInt8(ascii: "a"), (utf8[0] | 0x20) <= UInt8(ascii: "z") {
            return "an absolute path with a drive letter, which climbs out of the archive"
        }
        let segments = utf8.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }
        if segments.contains(where: { $0.elementsEqual("..".utf8) }) { return "a \"..\" segment, which climbs out of the archive" }
        return nil
    }
}
