import AppFlipCore
import Glibc

/// The strict little JSON scanner under the hot-path decoders: it reads only what they understand and
/// reports anything else as "not mine" (`nil` or `false`), never as an error.
struct FastJSONScanner {
    /// The keys an object has shown so far, one bit each: a `Set` here cost an allocation per object.
    struct SeenKeys: OptionSet {
        let rawValue: UInt16

        /// Records `key`; false when it was already there (a repeated key).
        mutating func insert(bit: Int) -> Bool {
            insert(SeenKeys(rawValue: 1 << bit)).inserted
        }
    }

    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Only whitespace is left.
    var atEnd: Bool {
        mutating get {
            skipWhitespace()
            return index == bytes.count
        }
    }

    mutating func beginArray() -> Bool {
        skipWhitespace()
        return consume(UInt8(ascii: "["))
    }

    mutating func endArray() -> Bool {
        skipWhitespace()
        return consume(UInt8(ascii: "]"))
    }

    mutating func nextElement() -> Bool {
        skipWhitespace()
        return consume(UInt8(ascii: ","))
    }

    /// An object's key, matched against the decoders' literals (`case "id":`) without becoming a `String`:
    /// a `String` per key was a tenth of the request scan. Every key the decoders know is plain ASCII with no
    /// escape, so a key that is not (`"i\/d"`, `"é"`) is checked like any string and then matches none.
    struct Key {
        /// The bytes between the quotes; `nil` for a key with an escape or a byte above 0x7F.
        fileprivate let plain: UnsafeRawBufferPointer?

        static func == (key: Key, literal: StaticString) -> Bool {
            guard let plain = key.plain else { return false }
            // `memcmp` after the length: `elementsEqual`'s iterators cost more than the keys' few bytes.
            return literal.withUTF8Buffer { literal in
                plain.count == literal.count && memcmp(plain.baseAddress!, literal.baseAddress!, literal.count) == 0
            }
        }

        static func ~= (literal: StaticString, key: Key) -> Bool {
            key == literal
        }

        /// Whether the key is spelled without an escape: only then can it be told from every literal.
        var isPlain: Bool { plain != nil }
    }

    /// Parses `{ "key": value, … }`, handing each key to `member`, which parses the value and says whether
    /// it was understood.
    mutating func object(_ member: (Key, inout FastJSONScanner) -> Bool) -> Bool {
        skipWhitespace()
        guard consume(UInt8(ascii: "{")) else { return false }
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return true }
        repeat {
            skipWhitespace()
            guard let key = key() else { return false }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")), member(key, &self) else { return false }
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    /// A key at the current position: its bytes when it is plain, otherwise whatever ``string()`` accepts.
    private mutating func key() -> Key? {
        guard peek == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        let end = start + JSONText.plainCount(UnsafeRawBufferPointer(rebasing: bytes[start...]), asciiOnly: true)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            index = end + 1
            return Key(plain: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        }
        return string() == nil ? nil : Key(plain: nil)
    }

    /// A request's `id`: a string, or a number whose value is an integer in the signed 64-bit range, however
    /// it is spelled (``number()``).
    mutating func requestID() -> RequestID? {
        skipWhitespace()
        if peek == UInt8(ascii: "\"") { return string().map(RequestID.string) }
        guard case .integer(let value)? = number() else { return nil }
        return .number(value)
    }

    /// A reply's `id` as the daemon writes it, a string or plain digits; any other spelling is left to the
    /// reference decoder.
    mutating func plainRequestID() -> RequestID? {
        skipWhitespace()
        if peek == UInt8(ascii: "\"") { return string().map(RequestID.string) }
        return signed().map(RequestID.number)
    }

    /// A JSON number, judged by its exact value.
    enum Number: Sendable, Hashable {
        /// An integer in the signed 64-bit range: `1000`, `1e3`, `1000.0`, `10000e-1`, `-0` alike.
        case integer(Int64)
        /// Any other number: a fraction, or an integer out of the range.
        case other
    }

    /// The JSON number at the current position, read from its digits without rounding, so that every
    /// spelling of a value is judged alike at both ends of the range; `nil` when no number is there.
    mutating func number() -> Number? {
        skipWhitespace()
        let negative = consume(UInt8(ascii: "-"))
        let integerStart = index
        skipDigits()
        let integerCount = index - integerStart
        guard integerCount > 0, !(integerCount > 1 && bytes[integerStart] == UInt8(ascii: "0")) else { return nil }
        // The usual id, plain digits that cannot overflow: read as they are, with no digit-sequence walk.
        if integerCount <= 18, peek != UInt8(ascii: "."), peek != UInt8(ascii: "e"), peek != UInt8(ascii: "E") {
            var value: Int64 = 0
            for position in integerStart..<index { value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0")) }
            return .integer(negative ? -value : value)
        }
        var fractionStart = index
        var fractionCount = 0
        if consume(UInt8(ascii: ".")) {
            fractionStart = index
            skipDigits()
            fractionCount = index - fractionStart
            guard fractionCount > 0 else { return nil }
        }
        // Saturated far beyond any exponent that could still give a 64-bit integer.
        var exponent = 0
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            let negativeExponent = consume(UInt8(ascii: "-"))
            if !negativeExponent { _ = consume(UInt8(ascii: "+")) }
            let start = index
            while let byte = peek, Self.isDigit(byte) {
                exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 1 << 40)
                index += 1
            }
            guard index > start else { return nil }
            if negativeExponent { exponent = -exponent }
        }
        // The digits, integer part then fraction, as one sequence: value = digits × 10^(exponent - fractionCount).
        let count = integerCount + fractionCount
        func digit(_ position: Int) -> UInt64 {
            let byte = position < integerCount ? bytes[integerStart + position] : bytes[fractionStart + position - integerCount]
            return UInt64(byte - UInt8(ascii: "0"))
        }
        guard let first = (0..<count).first(where: { digit($0) != 0 }) else { return .integer(0) }
        let last = (first..<count).last { digit($0) != 0 }!
        let scale = exponent - fractionCount + (count - 1 - last)
        // A last significant digit below the units, or 20 digits and more: no 64-bit integer.
        guard scale >= 0, last - first + 1 + scale <= 19 else { return .other }
        var magnitude: UInt64 = 0
        for position in first...last { magnitude = magnitude * 10 + digit(position) }
        for _ in 0..<scale {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return .other }
            magnitude = times
        }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? .integer(Int64(truncatingIfNeeded: 0 &- magnitude)) : .other
        }
        return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .other
    }

    private mutating func skipDigits() {
        while let byte = peek, Self.isDigit(byte) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// ``string()``, but `known` itself when the string is spelled exactly like it, escape-free: a string
    /// literal is immortal, so the activity type that every `open` carries costs no allocation, no UTF-8
    /// check and no reference count on its way through the daemon.
    mutating func string(known: String) -> String? {
        skipWhitespace()
        let spelled = known.utf8.withContiguousStorageIfAvailable { known in
            let end = index + 1 + known.count
            guard end < bytes.count, bytes[index] == UInt8(ascii: "\""), bytes[end] == UInt8(ascii: "\"") else { return false }
            guard memcmp(bytes.baseAddress! + index + 1, known.baseAddress!, known.count) == 0 else { return false }
            index = end + 1
            return true
        }
        return spelled == true ? known : string()
    }

    /// A JSON string with only the short escapes; `nil` for `\u`, control characters or invalid UTF-8.
    mutating func string() -> String? {
        skipWhitespace()
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        // Most strings are plain ASCII to their closing quote: skip that run a word at a time.
        index += JSONText.plainCount(UnsafeRawBufferPointer(rebasing: bytes[index...]), asciiOnly: true)
        var escaped = false
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if escaped { return Self.unescape(raw) }
                // ASCII is valid UTF-8, and decoding it skips the generic validator, which
                // Benchmarks/instructions-per-handoff shows on every handoff.
                return ascii ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
            }
            if byte < 0x20 { return nil }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 1
                guard index < bytes.count, Self.shortEscapes[bytes[index]] != nil else { return nil }
            }
            index += 1
        }
        return nil
    }

    private static let shortEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "/"): UInt8(ascii: "/"),
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    private static func unescape(_ raw: UnsafeRawBufferPointer) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var iterator = raw.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "\\"), let next = iterator.next() {
                out.append(shortEscapes[next]!)
            } else {
                out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    mutating func bool() -> Bool? {
        skipWhitespace()
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    mutating func signed() -> Int64? {
        skipWhitespace()
        // JSON allows no whitespace between the sign and the digits (FuzzRequest found `-\n1` taken for -1).
        let negative = consume(UInt8(ascii: "-"))
        guard let magnitude = digits(), magnitude <= UInt64(Int64.max) else { return nil }
        return negative ? -Int64(magnitude) : Int64(magnitude)
    }

    /// A plain integer: digits only, no leading zero, no fraction or exponent.
    mutating func unsigned() -> UInt64? {
        skipWhitespace()
        return digits()
    }

    /// The digits of a plain integer at the current position, with nothing before them.
    private mutating func digits() -> UInt64? {
        let start = index
        var value: UInt64 = 0
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        let length = index - start
        guard length > 0, !(length > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
        if let next = peek, next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") { return nil }
        return value
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { word in
            (0..<count).allSatisfy { bytes[index + $0] == word[$0] }
        }
        if matches { index += count }
        return matches
    }

    // The three below run a few dozen times per line: inlined, a call apiece no longer costs more than
    // the byte compare it makes.
    var peek: UInt8? {
        @inline(__always) get { index < bytes.count ? bytes[index] : nil }
    }

    @inline(__always)
    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }
}
