/// Android's package name syntax, as the package manager enforces it when an app is installed.
///
/// AOSP `PackageParser.validateName(name, requireSeparator: true, …)`: dot-separated segments, at least two,
/// each starting with an ASCII letter and going on with letters, digits and `_`. A statement naming anything
/// else can never match an installed app.
public enum AndroidPackageName {
    public static func isValid(_ name: String) -> Bool {
        var hasSeparator = false
        var atSegmentStart = true
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                atSegmentStart = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                if atSegmentStart { return false }
            case UInt8(ascii: "."):
                if atSegmentStart { return false }
                hasSeparator = true
                atSegmentStart = true
            default:
                return false
            }
        }
        return hasSeparator && !atSegmentStart
    }
}
