import AppFlipCore
import NIOConcurrencyHelpers

/// Turns swift-log metadata keys into journal field names.
///
/// journald accepts field names made of `A`–`Z`, `0`–`9` and `_`, not starting with a digit, at most 64
/// characters; a leading `_` marks fields that only journald itself may set. The mapping:
///
/// 1. split the key into upper-case words as `SecretNames.words(in:)` does, the split by which a key is
///    judged secret (`handoffID` → `HANDOFF`, `ID`; `URLPath` → `URL`, `PATH`);
/// 2. join the words with `_`;
/// 3. put the prefix in front (`APPFLIP_`), which also guarantees the name starts with a letter and never
///    collides with journald's own fields (`MESSAGE`, `PRIORITY`, …);
/// 4. cut to 64 characters.
///
/// So `handoff-id`, `handoff_id`, `handoffID` and `HandoffId` all become `APPFLIP_HANDOFF_ID`. A key with no
/// letter or digit at all becomes `APPFLIP_UNNAMED`. Two keys that map to one name both appear: journald
/// keeps repeated fields.
public struct JournalFieldName: Sendable {
    /// The longest name journald accepts.
    public static let maximumLength = 64

    /// Put before every metadata field name, e.g. `APPFLIP_`, so the daemon's fields do not clash with journald's own.
    public let prefix: String
    /// Keys repeat on every record (the handoff line has ten): each is split and named once.
    private let known = KnownKeys()

    /// - Parameter prefix: upper-case letters, digits and `_`, starting with a letter.
    public init(prefix: String = "APPFLIP_") {
        precondition(
            Self.isValid(prefix.hasSuffix("_") ? String(prefix.dropLast()) : prefix),
            "a journal field prefix must be A-Z, 0-9 and _ and start with a letter: \(prefix)"
        )
        self.prefix = prefix
    }

    /// The field name for a metadata key.
    public func fieldName(forKey key: String) -> String {
        fieldName(forWords: SecretNames.words(in: key))
    }

    /// What a metadata key resolves to, computed once per key.
    struct Resolved: Sendable {
        /// Whether the key's value must not be logged (`LogRedaction`).
        var sensitive: Bool
        /// ` NAME=`: how the field starts in the entry (`JournalFieldWriter`), spelled once.
        var spelled: [UInt8]
        /// The eight bytes of the name after the prefix, as one big-endian number (zeros past a shorter
        /// name): it orders names as their bytes do, up to ties. Comparing the names as strings was a
        /// tenth of the handoff record's cost.
        var order: UInt64
    }

    /// What `key` resolves to.
    func resolve(key: String) -> Resolved {
        known.resolve(key) { key in
            let words = SecretNames.words(in: key)
            let name = fieldName(forWords: words)
            let bytes = Array(name.utf8.dropFirst(prefix.utf8.count).prefix(8))
            let order = (0..<8).reduce(UInt64(0)) { order, index in order << 8 | (index < bytes.count ? UInt64(bytes[index]) : 0) }
            return Resolved(sensitive: SecretNames.isSecret(name: key), spelled: Array((" " + name + "=").utf8), order: order)
        }
    }

    /// The field name for a key already split into words.
    func fieldName(forWords words: [String]) -> String {
        let body = words.isEmpty ? "UNNAMED" : words.joined(separator: "_")
        return String((prefix + body).prefix(Self.maximumLength))
    }

    /// Whether journald accepts `name` as a field that a client may send.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= maximumLength else { return false }
        guard first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") else { return false }
        return name.utf8.allSatisfy { isUpper($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// The keys a `JournalFieldName` has resolved, shared by its copies.
///
/// Hand-written in front of the dictionary: hashing the handoff record's ten keys was a tenth of the record's
/// cost on the log writer's thread. A key is first looked for in a small direct-mapped table, placed by the
/// two words that represent the string (the same literal, which is how keys are written, has the same two
/// words) and confirmed with `==` (which compares those words before any byte); then in the dictionary.
private final class KnownKeys: Sendable {
    typealias Resolved = JournalFieldName.Resolved
    /// Keys come from code, so a few dozen; a bound all the same, should one be made of data.
    static let maximumCount = 1024
    /// The direct-mapped table's slots: a power of two, well above the keys of one record.
    static let recentCount = 64

    private struct Table {
        var recent = [(key: String, resolved: Resolved)?](repeating: nil, count: KnownKeys.recentCount)
        var all: [String: Resolved] = [:]
    }

    private let table = NIOLockedValueBox(Table())

    func resolve(_ key: String, computing: (String) -> Resolved) -> Resolved {
        let slot = Self.slot(of: key)
        let found = table.withLockedValue { table -> Resolved? in
            if let recent = table.recent[slot], recent.key == key { return recent.resolved }
            guard let resolved = table.all[key] else { return nil }
            table.recent[slot] = (key, resolved)
            return resolved
        }
        if let found { return found }
        let resolved = computing(key)
        table.withLockedValue { table in
            if table.all.count < Self.maximumCount { table.all[key] = resolved }
            table.recent[slot] = (key, resolved)
        }
        return resolved
    }

    /// The key's slot, from the two words of its representation: a small string's are its bytes, a large
    /// one's its length and storage. Only a hint: any two words would be correct, since `==` confirms.
    private static func slot(of key: String) -> Int {
        let words = unsafeBitCast(key, to: (UInt64, UInt64).self)
        let mixed = (words.0 &* 0x9E37_79B9_7F4A_7C15) ^ (words.1 &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed >> 58) & (recentCount - 1)
    }
}
