/// One extra of an Android `Intent`, typed as `Bundle` types it: `getStringExtra` finds a `String` only, and
/// `getStringArrayExtra` a `String[]` only, so that a `SCOPE` sent as `String[]` and read as a `String` is
/// lost (Google's own sample does it). The type travels with the value, and a read of another type misses.
///
/// On the wire an extra is an object with one key, its type: `{"string":"…"}`, `{"stringArray":[…]}`,
/// `{"stringArrayList":[…]}`, `{"int":42}`, `{"boolean":true}` (`Intent.putExtra` overloads and
/// `putStringArrayListExtra`).
public enum IntentExtra: Sendable, Hashable {
    /// `putExtra(String, String)`: `getStringExtra`.
    case string(String)
    /// `putExtra(String, String[])`: `getStringArrayExtra`.
    case stringArray([String])
    /// `putStringArrayListExtra`: `getStringArrayListExtra`.
    case stringArrayList([String])
    /// `putExtra(String, int)`: `getIntExtra`, a Java `int`.
    case int(Int32)
    /// `putExtra(String, boolean)`: `getBooleanExtra`.
    case boolean(Bool)

    /// The type's name on the wire.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .stringArray: "stringArray"
        case .stringArrayList: "stringArrayList"
        case .int: "int"
        case .boolean: "boolean"
        }
    }

    /// `getStringExtra(name)`: the value when it is a `String`, else nil.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// `getStringArrayExtra(name)`: the value when it is a `String[]`, else nil.
    public var stringArray: [String]? {
        if case .stringArray(let value) = self { return value }
        return nil
    }

    /// `getIntExtra(name, …)`: the value when it is an `int`, else nil.
    public var int: Int32? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The strings the value holds, for the size bounds and redaction.
    var strings: [String] {
        switch self {
        case .string(let value): [value]
        case .stringArray(let values), .stringArrayList(let values): values
        case .int, .boolean: []
        }
    }

    /// The value as `watch` and the log show it: when `name` is a secret one (`AUTHORIZATION_CODE`, by
    /// `SecretNames`), each string becomes `[redacted:NB]`, and an `int` or a `boolean` becomes the
    /// placeholder of its decimal text, as a string; other values are shown as they are.
    public func redacted(name: String) -> IntentExtra {
        guard SecretNames.isSecret(name: name) else { return self }
        switch self {
        case .string(let value): return .string(SecretNames.placeholder(for: value))
        case .stringArray(let values): return .stringArray(values.map(SecretNames.placeholder(for:)))
        case .stringArrayList(let values): return .stringArrayList(values.map(SecretNames.placeholder(for:)))
        case .int(let value): return .string(SecretNames.placeholder(for: String(value)))
        case .boolean(let value): return .string(SecretNames.placeholder(for: String(value)))
        }
    }
}

extension IntentExtra: Codable {
    private enum TypeKey: String, CodingKey, CaseIterable {
        case string, stringArray, stringArrayList, int, boolean
    }

    /// Decodes `{"<type>": value}`: exactly one key, a known type, a value of that type (an `int` in Java's
    /// range).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let types = TypeKey.allCases.map(\.stringValue).joined(separator: ", ")
        guard container.allKeys.count == 1, let type = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "an extra is an object with one key, its type: \(types)")
            )
        }
        switch type {
        case .string: self = .string(try container.decode(String.self, forKey: type))
        case .stringArray: self = .stringArray(try container.decode([String].self, forKey: type))
        case .stringArrayList: self = .stringArrayList(try container.decode([String].self, forKey: type))
        case .int:
            guard let value = Int32(exactly: try container.decodeInteger(forKey: type)) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: container.codingPath + [type], debugDescription: "a Java int is between -2147483648 and 2147483647")
                )
            }
            self = .int(value)
        case .boolean: self = .boolean(try container.decode(Bool.self, forKey: type))
        }
    }

    /// Encodes `{"<type>": value}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .string)
        case .stringArray(let value): try container.encode(value, forKey: .stringArray)
        case .stringArrayList(let value): try container.encode(value, forKey: .stringArrayList)
        case .int(let value): try container.encode(value, forKey: .int)
        case .boolean(let value): try container.encode(value, forKey: .boolean)
        }
    }
}
