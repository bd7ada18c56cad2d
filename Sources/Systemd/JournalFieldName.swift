import NIOConcurrencyHelpers

/// Turns swift-log metadata keys into journal field names.
///
/// journald accepts field names made of `A`–`Z`, `0`–`9` and `_`, not starting with a digit, at most 64
/// characters; a leading `_` marks fields that only journald itself may set. The mapping:
///
/// 1. split the key into words at every character that is not an ASCII letter or digit, at each
///    lower-case→upper-case step (`handoffID` → `handoff`, `ID`), and at the last capital of an acronym
///    followed by a lower-case letter (`URLPath` → `URL`, `Path`);
/// 2. upper-case the words and join them with `_`;
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
        fieldName(forWords: Self.words(in: key))
    }

    /// Whether the key is sensitive (`LogRedaction`) and its field name, computed once per key.
    func resolve(key: String) -> (sensitive: Bool, name: String) {
        if let resolved = known.names.withLockedValue({ $0[key] }) { return resolved }
        let words = Self.words(in: key)
        let resolved = (LogRedaction.isSensitive(words: words), fieldName(forWords: words))
        known.names.withLockedValue { names in
            // Keys come from code, so a few dozen; a bound all the same, should one be made of data.
            if names.count < KnownKeys.maximumCount { names[key] = resolved }
        }
        return resolved
    }

    /// The field name for a key already split by `words(in:)`.
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

    static func words(in key: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        let bytes = Array(key.utf8)
        func finishWord() {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        for (index, byte) in bytes.enumerated() {
            guard isUpper(byte) || isLower(byte) || isDigit(byte) else {
                finishWord()
                continue
            }
            if isUpper(byte), !current.isEmpty {
                let previous = bytes[index - 1]
                let next = index + 1 < bytes.count ? bytes[index + 1] : nil
                let startsCamelWord = isLower(previous) || isDigit(previous)
                let endsAcronym = isUpper(previous) && next.map(isLower) == true
                if startsCamelWord || endsAcronym { finishWord() }
            }
            current.append(isLower(byte) ? byte - 32 : byte)
        }
        finishWord()
        return words
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// The keys a `JournalFieldName` has resolved, shared by its copies.
private final class KnownKeys: Sendable {
    static let maximumCount = 1024
    let names = NIOLockedValueBox<[String: (sensitive: Bool, name: String)]>([:])
}
