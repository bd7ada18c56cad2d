/// An Android application id, held to the rule the package parser applies to a manifest's `package`
/// (AOSP `ParsingPackageUtils.validateName`, `FrameworkParsingPackageUtils` since Android 14): ASCII letters,
/// digits, `_` and `.`, at least one `.`, and no digit or `_` at the start or right after a `.` (so `com..app`
/// passes, as it does on a device). Compared exactly, never folded. A statement or a configuration naming
/// anything else can never match an installed app.
public enum AndroidPackageName {
    /// The longest package name appflipd takes, in bytes (Android refuses longer ones as file names).
    public static let maxBytes = 255

    /// Whether Android would install a package of this name.
    public static func isValid(_ name: String) -> Bool { problem(with: name) == nil }

    /// Why `name` is not a package name, in the parser's words, or nil.
    public static func problem(with name: String) -> String? {
        guard !name.isEmpty else { return "must be a non-empty package name, e.g. com.example.app" }
        guard name.utf8.count <= maxBytes else { return "is longer than \(maxBytes) bytes" }
        var hasSeparator = false
        var front = true
        for byte in name.utf8 {
            if (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") {
                front = false
            } else if !front, (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") {
                continue
            } else if byte == UInt8(ascii: ".") {
                hasSeparator = true
                front = true
            } else {
                let character = byte < 0x80 ? String(UnicodeScalar(byte)) : "non-ASCII"
                return "\"\(name)\" is not a package name: bad character '\(character)'"
            }
        }
        return hasSeparator ? nil : "\"\(name)\" is not a package name: it must have at least one '.' separator"
    }
}
