import Foundation

/// Reads an XML or binary property list with Foundation, after bounding it: its size, its format (only XML and
/// `bplist00`; Foundation would otherwise also try the old OpenStep syntax) and its nesting, each refused with
/// the offset where it broke, before Foundation parses anything.
enum PropertyListReader {
    /// The largest property list read: an Info.plist, a profile's content or an entitlements file is a few
    /// kilobytes; this leaves room for the largest seen and bounds what Foundation allocates.
    static let maximumSize = 1 << 20
    /// The deepest nesting of arrays and dictionaries read: real ones nest a few levels.
    static let maximumDepth = 64
    /// The most values read, every array item, dictionary key and value counted: an Info.plist or a profile
    /// has hundreds. Foundation allocates for each, and a binary property list can share one object many times
    /// over, so its values are counted as Foundation would expand them.
    static let maximumValues = 16_384

    /// The property list in `bytes`, which were read at `base` in `file`.
    static func read(_ bytes: [UInt8], file: String, base: Int = 0) throws(ArtifactError) -> PropertyListValue {
        let structure = "property list"
        guard bytes.count <= maximumSize else {
            throw ArtifactError(structure, file: file, offset: base, "\(bytes.count) bytes, over the limit of \(maximumSize)")
        }
        if bytes.starts(with: "bplist00".utf8) {
            try BinaryPropertyListShape.check(bytes, file: file, base: base, maximumDepth: maximumDepth, maximumValues: maximumValues)
        } else if let start = bytes.firstIndex(where: { !Self.isLeadingSpace($0) }), bytes[start] == UInt8(ascii: "<") {
            try XMLPropertyListShape.check(bytes, file: file, base: base, maximumDepth: maximumDepth, maximumValues: maximumValues)
        } else {
            throw ArtifactError(structure, file: file, offset: base, "neither an XML nor a binary (bplist00) property list")
        }
        let parsed: Any
        do {
            parsed = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw ArtifactError(structure, file: file, offset: base, "Foundation could not read it: \(reason)")
        }
        guard let value = PropertyListValue(foundation: parsed) else {
            throw ArtifactError(structure, file: file, offset: base, "it holds a value that is not a property-list type")
        }
        return value
    }

    /// The dictionary at the root of the property list in `bytes`.
    static func readDictionary(
        _ bytes: [UInt8],
        file: String,
        base: Int = 0,
        what: String
    ) throws(ArtifactError) -> [String: PropertyListValue] {
        guard let members = try read(bytes, file: file, base: base).dictionary else {
            throw ArtifactError("property list", file: file, offset: base, "\(what) must be a dictionary at its root")
        }
        return members
    }

    /// A UTF-8 byte order mark and XML white space may precede the first tag.
    private static func isLeadingSpace(_ byte: UInt8) -> Bool {
        byte == 0xEF || byte == 0xBB || byte == 0xBF || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
