/// A strict RFC 8259 parser from UTF-8 bytes to `JSONValue`, so that the core needs no Foundation.
///
/// It reports where the text stops being JSON (byte, line and column), bounds nesting depth so that a
/// hostile file cannot exhaust the stack, and records duplicate object keys: Apple's parser keeps the last
/// one, and so does this one, but the loader warns because the earlier value is silently ignored.
struct JSONParser {
    /// Deeper than any real association file; deep enough that recursion stays far from the stack's end.
    static let maximumDepth = 128

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private var path: [String] = []
    /// RFC 6901 pointers of every key that appeared twice in its object.
    private(set) var duplicateKeyPointers: [String] = []
    /// Whether to remember where each value starts, for loaders that name a line and column per finding.
    var recordsValueOffsets = false
    /// The byte offset at which each value starts, by RFC 6901 pointer (only with `recordsValueOffsets`).
    private(set) var valueOffsets: [String: Int] = [:]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is not JSON, but editors write it and Apple's parser accepts it.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    mutating func parse() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("the text ends where a value should start") }
        if recordsValueOffsets { valueOffsets[path.reduce("") { JSONPointer.appending($1, to: $0) }] = index }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describe(bytes[index])) where a value should start")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a quoted key") }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the key") }
            index += 1
            skipWhitespace()
            path.append(key)
            let value = try parseValue()
            if members.updateValue(value, forKey: key) != nil {
                duplicateKeyPointers.append(path.reduce("") { JSONPointer.appending($1, to: $0) })
            }
            path.removeLast()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
            } else if peek(UInt8(ascii: "}")) {
                index += 1
                depth -= 1
                return .object(members)
            } else {
                throw error("expected ',' or '}' in the object")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            path.append(String(items.count))
            items.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
            } else if peek(UInt8(ascii: "]")) {
                index += 1
                depth -= 1
                return .array(items)
            } else {
                throw error("expected ',' or ']' in the array")
            }
        }
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var decoded: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else {
                index = start
                throw error("the string is not closed")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                decoded += bytes[runStart..<index]
                index += 1
                guard let string = String(validating: decoded, as: UTF8.self) else {
                    index = start
                    throw error("the string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                decoded += bytes[runStart..<index]
                try parseEscape(into: &decoded)
                runStart = index
            case 0..<0x20:
                throw error("a control character must be escaped inside a string")
            default:
                index += 1
            }
        }
    }

    private mutating func parseEscape(into decoded: inout [UInt8]) throws(JSONSyntaxError) {
        index += 1
        guard index < bytes.count else { throw error("the escape is cut off") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): decoded.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): decoded.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): decoded.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                    throw error("a high surrogate must be followed by a low surrogate")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("a high surrogate must be followed by a low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("\\u escape of a lone surrogate") }
            UTF8.encode(unicode) { decoded.append($0) }
        default:
            index -= 1
            throw error("\\\(describe(escape)) is not a JSON escape")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("\\u needs four hexadecimal digits") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            guard let digit = Hex.value(of: byte) else { throw error("\\u needs four hexadecimal digits") }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
        } else if digitCount() == 0 {
            throw error("a number needs digits")
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard digitCount() > 0 else { throw error("a decimal point needs digits after it") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard digitCount() > 0 else { throw error("an exponent needs digits") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            index = start
            throw error("the number is out of range")
        }
        return value
    }

    private mutating func digitCount() -> Int {
        let start = index
        while index < bytes.count, bytes[index].isASCIIDigit { index += 1 }
        return index - start
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes[index...].starts(with: expected) else { throw error("unexpected \(describe(bytes[index]))") }
        index += expected.count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + Hex.string([byte], uppercase: true)
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        let position = JSONSourcePosition(offset: index, in: bytes)
        return JSONSyntaxError(reason: reason, offset: index, line: position.line, column: position.column)
    }
}

/// A 1-based line and column in JSON text, columns counted in Unicode scalars as editors count them.
public struct JSONSourcePosition: Sendable, Hashable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position of byte `offset` of `bytes`.
    package init(offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.line = line
        self.column = column
    }
}

/// Text that is not JSON, and where it stops being JSON.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the parser expected or found, in words.
    public let reason: String
    /// The UTF-8 offset of the problem.
    public let offset: Int
    /// The 1-based line of the problem, for editors.
    public let line: Int
    /// The 1-based column of the problem, counted in Unicode scalars from the line start.
    public let column: Int

    /// The reason, then line, column and byte offset.
    public var description: String { "\(reason) (line \(line), column \(column), byte \(offset))" }
}
