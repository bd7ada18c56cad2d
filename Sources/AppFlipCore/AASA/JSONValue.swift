/// A JSON document as written, kept whole so that the AASA loader can check every value's type and say
/// exactly where a problem is (an RFC 6901 pointer) instead of failing a `Decodable` model at the first one.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses UTF-8 JSON text (RFC 8259). Of duplicate keys in an object the last one wins, as on Apple's
    /// platforms.
    public init(parsing json: some Collection<UInt8>) throws(JSONSyntaxError) {
        var parser = JSONParser(Array(json))
        self = try parser.parse()
    }

    /// Compact JSON text with sorted keys, so that the same value always renders the same way.
    public var compactJSON: String {
        var output: [UInt8] = []
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the value as `compactJSON`: the one hand-written form of a `JSONValue`, numbers by
    /// `JSONText`'s rule, the same bytes `JSONEncoder.protocolEncoder` writes for its `Codable` form.
    package func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): JSONText.appendNumber(value, to: &output)
        case .string(let value): JSONText.appendString(value, to: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONText.appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                members[key]!.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// What a user would call this value's type, for diagnostics.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// The protocol carries inline AASA documents and `userInfo` as JSON values: they round-trip through
/// `Codable` exactly as parsed, and `JSONEncoder` writes them as `write(to:)` does.
extension JSONValue: Codable {
    /// Decodes any JSON value; every number becomes a `Double`, as the parser reads it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            // Members are decoded in key order: decoding `[String: JSONValue]` visits them in the order of a
            // dictionary, which changes from one decoding to the next, so that of two bad members the error
            // named either (the fuzzer's FuzzRequest found a `register` reply naming one field or another).
            let object = try decoder.container(keyedBy: MemberKey.self)
            var members: [String: JSONValue] = [:]
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
        }
    }

    /// Encodes the value back as it was parsed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number):
            // `JSONEncoder` writes a finite `Double` by `JSONText`'s number rule; `null` stands for the others.
            if number.isFinite { try container.encode(number) } else { try container.encodeNil() }
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

/// Any member name of a JSON object, for decoding its members one by one.
private struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A value and where in the document it was written.
struct Located<Value> {
    let value: Value
    let pointer: String
}

/// RFC 6901 JSON pointers, built while walking a document.
enum JSONPointer {
    /// `pointer` extended by one object key or array index, with `~` and `/` escaped as the RFC requires.
    static func appending(_ token: String, to pointer: String) -> String {
        var escaped = ""
        for character in token {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return pointer + "/" + escaped
    }

    static func appending(_ index: Int, to pointer: String) -> String {
        pointer + "/" + String(index)
    }
}
