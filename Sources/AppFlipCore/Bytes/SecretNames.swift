/// The one rule for which names carry a secret, and how a secret value is shown instead: the daemon's URLs
/// (`Redaction` in AppFlipProtocol: replies, `watch` events, handoff records) and its journal (`LogRedaction`
/// in Systemd) both ask here, so a name hidden in one is hidden in the other, behind the same placeholder.
///
/// A name is secret when one of its words is a sensitive one (`code`, `authCode`, `access_token`,
/// `client-secret`, `Set-Cookie`, …), reading its words two ways: as `words(in:)` splits it (at every
/// character that is not an ASCII letter or digit, and at camelCase steps) and lower-cased, as a receiving
/// app compares names (`CoDe`, and `to\u{212A}en`, whose Kelvin sign lower-cases to `k`). `CODE` right after
/// one of `nonSecretCodeQualifiers` names a status, not a credential (`error_code`, `exitCode`).
package enum SecretNames {
    /// Words that make a name secret, upper-case.
    package static let sensitiveWords: Set<String> = [
        "CODE", "TOKEN", "TOKENS", "SECRET", "SECRETS", "COOKIE", "COOKIES", "PASSWORD", "PASSWD",
        "PASSPHRASE", "CREDENTIAL", "CREDENTIALS", "AUTHORIZATION", "VERIFIER", "ASSERTION",
    ]

    /// Words after which `CODE` is a status, not a credential.
    package static let nonSecretCodeQualifiers: Set<String> = [
        "ERROR", "EXIT", "STATUS", "HTTP", "REASON", "RESPONSE", "RESULT",
    ]

    // MARK: Names

    /// Whether a value named `name` is a secret.
    package static func isSecret(name: String) -> Bool {
        var name = name
        return name.withUTF8 { isSecret(name: UnsafeRawBufferPointer($0)) }
    }

    /// Whether a value named by the UTF-8 bytes `name` is a secret. Allocates nothing for an ASCII name,
    /// since the URL and log writers ask for every parameter they see.
    package static func isSecret(name: UnsafeRawBufferPointer) -> Bool {
        if mayBeSensitive(name: name), holdsSensitiveWord(name, splittingAtCase: true) || holdsSensitiveWord(name, splittingAtCase: false) {
            return true
        }
        guard name.contains(where: { $0 >= 0x80 }) else { return false }
        // Unicode lower-casing, as a receiving app's: `to\u{212A}en` (a Kelvin sign) is `token`.
        var lowered = String(decoding: name, as: UTF8.self).lowercased()
        return lowered.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            return mayBeSensitive(name: bytes) && holdsSensitiveWord(bytes, splittingAtCase: false)
        }
    }

    /// `key`'s words, upper-case: split at every character that is not an ASCII letter or digit, at each
    /// lower-case→upper-case step (`handoffID` → `HANDOFF`, `ID`), and at the last capital of an acronym
    /// followed by a lower-case letter (`URLPath` → `URL`, `PATH`).
    package static func words(in key: String) -> [String] {
        var key = key
        return key.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            return Words(bytes, splittingAtCase: true).map { word in
                String(decoding: bytes[word].lazy.map { isLower($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
            }
        }
    }

    /// Whether a word of `name` is sensitive, and not a `CODE` after a qualifier; ASCII letters compared
    /// in any case.
    private static func holdsSensitiveWord(_ name: UnsafeRawBufferPointer, splittingAtCase: Bool) -> Bool {
        var previous: Range<Int>?
        for word in Words(name, splittingAtCase: splittingAtCase) {
            if let sensitive = sensitiveWordBytes.firstIndex(where: { equalsFoldingCase(name[word], $0) }) {
                let qualified =
                    sensitiveWordBytes[sensitive] == codeBytes
                    && previous.map { previous in qualifierBytes.contains { equalsFoldingCase(name[previous], $0) } } == true
                if !qualified { return true }
            }
            previous = word
        }
        return false
    }

    /// The words of a name as ranges of its bytes: runs of ASCII letters and digits, split at camelCase
    /// steps too when `splittingAtCase`.
    private struct Words: Sequence, IteratorProtocol {
        let bytes: UnsafeRawBufferPointer
        let splittingAtCase: Bool
        var index = 0

        init(_ bytes: UnsafeRawBufferPointer, splittingAtCase: Bool) {
            self.bytes = bytes
            self.splittingAtCase = splittingAtCase
        }

        mutating func next() -> Range<Int>? {
            while index < bytes.count, !isAlphanumeric(bytes[index]) { index += 1 }
            guard index < bytes.count else { return nil }
            let start = index
            index += 1
            while index < bytes.count, isAlphanumeric(bytes[index]) {
                if splittingAtCase, isUpper(bytes[index]) {
                    let previous = bytes[index - 1]
                    let startsCamelWord = isLower(previous) || isDigit(previous)
                    let endsAcronym = isUpper(previous) && index + 1 < bytes.count && isLower(bytes[index + 1])
                    if startsCamelWord || endsAcronym { break }
                }
                index += 1
            }
            return start..<index
        }
    }

    /// Whether `word` is the upper-case ASCII `expected` in any case (a digit never equals a letter folded).
    private static func equalsFoldingCase(_ word: Slice<UnsafeRawBufferPointer>, _ expected: [UInt8]) -> Bool {
        guard word.count == expected.count else { return false }
        return zip(word, expected).allSatisfy { $0 & 0xDF == $1 }
    }

    private static let sensitiveWordBytes = sensitiveWords.sorted().map { Array($0.utf8) }
    private static let qualifierBytes = nonSecretCodeQualifiers.sorted().map { Array($0.utf8) }
    private static let codeBytes = Array("CODE".utf8)

    // MARK: The quick check

    /// The lower-case bytes of `sensitiveWords` that hold no other one (`TOKENS` holds `TOKEN`), by their
    /// first letter: `a` at 0 to `z` at 25.
    private static let sensitiveWordsByInitial: [[[UInt8]]] = {
        let words = sensitiveWords.map { $0.lowercased() }
        let shortest = words.filter { word in !words.contains { $0 != word && word.contains($0) } }
        var byInitial = [[[UInt8]]](repeating: [], count: 26)
        for word in shortest.sorted() { byInitial[Int(word.utf8.first! - UInt8(ascii: "a"))].append(Array(word.utf8)) }
        return byInitial
    }()

    /// One bit per letter (`a` the lowest) that starts one of `sensitiveWordsByInitial`.
    private static let sensitiveInitials: UInt32 = sensitiveWordsByInitial.indices.reduce(0) { bits, letter in
        sensitiveWordsByInitial[letter].isEmpty ? bits : bits | 1 << UInt32(letter)
    }

    /// False only when the ASCII part of `name` cannot hold a sensitive word: every word, read either way,
    /// is a run of its letters. Lets the writers pass over most names (`https:` in every URL, `state=`)
    /// without splitting them. One test per byte of the name; words are compared only where one's first
    /// letter stands, since sliding each word over the name was a large part of the log writer's work.
    package static func mayBeSensitive(name: UnsafeRawBufferPointer) -> Bool {
        let initials = sensitiveInitials
        var start = 0
        while start < name.count {
            let letter = (name[start] | 0x20) &- UInt8(ascii: "a")  // 26 and above for all but letters
            if letter < 26, initials & 1 << UInt32(letter) != 0 {
                for word in sensitiveWordsByInitial[Int(letter)] where holds(word, at: start, in: name) { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether `name` holds the lower-case `word` at `start`, in any case; its first letter is known to match.
    private static func holds(_ word: [UInt8], at start: Int, in name: UnsafeRawBufferPointer) -> Bool {
        guard name.count - start >= word.count else { return false }
        for offset in 1..<word.count where name[start + offset] | 0x20 != word[offset] { return false }
        return true
    }

    // MARK: The placeholder

    /// What a secret value is shown as: `[redacted:NB]`, its length in UTF-8 bytes. The length alone says
    /// whether a value was there and roughly what it was (a code, a JWT), and nothing of its content.
    package static func placeholder(for value: String) -> String {
        var bytes: [UInt8] = []
        appendPlaceholder(byteCount: value.utf8.count, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `placeholder(for:)` of a value `byteCount` bytes long to `bytes`.
    package static func appendPlaceholder(byteCount: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: "[redacted:".utf8)
        withDecimalDigits(of: Int64(byteCount)) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: "B]".utf8)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isUpper(byte) || isLower(byte) || isDigit(byte) }
    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
