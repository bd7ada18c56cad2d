/// Android's `android.os.PatternMatcher`, ported quirk for quirk: the matcher behind `<data android:path…>`
/// and Android 15's dynamic App Links rules.
///
/// It works on UTF-16 code units, as Java's `String.charAt` does. Neither glob ever backtracks: in
/// `pathPattern`, `.*` consumes input only up to the first occurrence of the pattern character after it, so
/// `.*bar` refuses `/abcbar`; in `pathAdvancedPattern`, a repeated token takes all it can. Authors expect a
/// regular expression and get this, so routing must do the same (AOSP `core/java/android/os/PatternMatcher.java`).
public struct PatternMatcher: Sendable, Hashable, CustomStringConvertible {
    /// PatternMatcher's pattern types, with the manifest attribute each comes from.
    public enum Kind: Int, Sendable, Hashable, CaseIterable {
        /// `android:path`: the whole path, exactly.
        case literal = 0
        /// `android:pathPrefix`: no segment boundary, so `/app` matches `/apple`.
        case prefix = 1
        /// `android:pathPattern`: `.` any character, `X*` any run of X, `\` escapes.
        case simpleGlob = 2
        /// `android:pathAdvancedPattern` (API 31): sets, ranges and `+`/`{n,m}`.
        case advancedGlob = 3
        /// `android:pathSuffix` (API 31).
        case suffix = 4

        /// The constant's name in PatternMatcher.
        public var name: String {
            switch self {
            case .literal: "LITERAL"
            case .prefix: "PREFIX"
            case .simpleGlob: "SIMPLE_GLOB"
            case .advancedGlob: "ADVANCED_GLOB"
            case .suffix: "SUFFIX"
            }
        }
    }

    /// Why an advanced pattern is refused (PatternMatcher throws `IllegalArgumentException`).
    public struct InvalidPattern: Error, Sendable, Hashable {
        public let reason: String
    }

    public let pattern: String
    public let kind: Kind
    private let units: [UInt16]
    private let parsed: [Int]

    /// Builds a matcher; only `advancedGlob` patterns can be refused, as in AOSP.
    public init(_ pattern: String, kind: Kind) throws(InvalidPattern) {
        self.pattern = pattern
        self.kind = kind
        units = Array(pattern.utf16)
        parsed = kind == .advancedGlob ? try AdvancedGlob.parse(units) : []
    }

    /// Whether `input` (a decoded path, query parameter or fragment) matches.
    public func matches(_ input: String) -> Bool {
        let match = Array(input.utf16)
        switch kind {
        case .literal: return units == match
        case .prefix: return match.starts(with: units)
        case .suffix: return match.count >= units.count && Array(match.suffix(units.count)) == units
        case .simpleGlob: return Self.matchGlob(units, match)
        case .advancedGlob: return AdvancedGlob.match(parsed, match)
        }
    }

    public var description: String { "\(kind.name) \(pattern)" }

    public static func == (lhs: PatternMatcher, rhs: PatternMatcher) -> Bool {
        lhs.pattern == rhs.pattern && lhs.kind == rhs.kind
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(kind)
    }

    private static let dot = UInt16(UInt8(ascii: "."))
    private static let star = UInt16(UInt8(ascii: "*"))
    private static let backslash = UInt16(UInt8(ascii: "\\"))

    /// `matchGlobPattern`, line for line: its missing backtracking is the behaviour being emulated.
    private static func matchGlob(_ pattern: [UInt16], _ match: [UInt16]) -> Bool {
        let np = pattern.count
        let nm = match.count
        if np <= 0 { return nm <= 0 }
        func at(_ index: Int) -> UInt16 { index < np ? pattern[index] : 0 }
        var ip = 0
        var im = 0
        var nextChar = pattern[0]
        while ip < np && im < nm {
            var c = nextChar
            ip += 1
            nextChar = at(ip)
            let escaped = c == backslash
            if escaped {
                c = nextChar
                ip += 1
                nextChar = at(ip)
            }
            if nextChar == star {
                if !escaped && c == dot {
                    if ip >= np - 1 { return true }
                    ip += 1
                    nextChar = pattern[ip]
                    if nextChar == backslash {
                        ip += 1
                        nextChar = at(ip)
                    }
                    repeat {
                        if match[im] == nextChar { break }
                        im += 1
                    } while im < nm
                    if im == nm { return false }
                    ip += 1
                    nextChar = at(ip)
                    im += 1
                } else {
                    repeat {
                        if match[im] != c { break }
                        im += 1
                    } while im < nm
                    ip += 1
                    nextChar = at(ip)
                }
            } else {
                if c != dot && match[im] != c { return false }
                im += 1
            }
        }
        if ip >= np && im >= nm { return true }
        // A trailing `.*` also matches the empty rest.
        return ip == np - 2 && pattern[ip] == dot && pattern[ip + 1] == star
    }
}
