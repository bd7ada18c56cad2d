public import AppFlipCore
public import Foundation

/// A property-list value, as Foundation read it from an XML or binary property list, or as the DER
/// entitlements blob of a code signature encodes it.
public indirect enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case date(Date)
    case data([UInt8])
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// The value as JSON: a date as ISO 8601 text, data as base64 text.
    public var json: JSONValue {
        switch self {
        case .string(let value): .string(value)
        case .bool(let value): .bool(value)
        case .integer(let value): .number(Double(value))
        case .real(let value): .number(value)
        case .date(let value): .string(value.formatted(.iso8601))
        case .data(let value): .string(Data(value).base64EncodedString())
        case .array(let values): .array(values.map(\.json))
        case .dictionary(let members): .object(members.mapValues(\.json))
        }
    }

    /// The value in one line, as the text report prints it: strings bare, arrays in brackets.
    public var text: String {
        switch self {
        case .string(let value): value
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .date(let value): value.formatted(.iso8601)
        case .data(let value): "<\(value.count) bytes>"
        case .array(let values): "[" + values.map(\.text).joined(separator: ", ") + "]"
        case .dictionary(let members):
            "{" + members.keys.sorted().map { "\($0): \(members[$0]!.text)" }.joined(separator: ", ") + "}"
        }
    }

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var date: Date? { if case .date(let value) = self { value } else { nil } }
    public var array: [PropertyListValue]? { if case .array(let values) = self { values } else { nil } }
    public var dictionary: [String: PropertyListValue]? { if case .dictionary(let members) = self { members } else { nil } }

    /// The strings of an array value; nil when the value is not an array of strings.
    public var strings: [String]? {
        array.flatMap { values in values.compactMap(\.string).count == values.count ? values.compactMap(\.string) : nil }
    }

    /// Converts what `PropertyListSerialization` returns. Foundation on Linux gives a `Bool` for `<true/>` and an
    /// `NSNumber` for `<integer>` and `<real>`, which would also cast to `Bool`: the exact type decides.
    init?(foundation value: Any) {
        if type(of: value) == Bool.self, let bool = value as? Bool {
            self = .bool(bool)
        } else if let string = value as? String {
            self = .string(string)
        } else if let date = value as? Date {
            self = .date(date)
        } else if let data = value as? Data {
            self = .data([UInt8](data))
        } else if let number = value as? NSNumber {
            let type = String(cString: number.objCType)
            self = type == "d" || type == "f" ? .real(number.doubleValue) : .integer(number.int64Value)
        } else if let values = value as? [Any] {
            var converted: [PropertyListValue] = []
            for item in values {
                guard let value = PropertyListValue(foundation: item) else { return nil }
                converted.append(value)
            }
            self = .array(converted)
        } else if let members = value as? [AnyHashable: Any] {
            var converted: [String: PropertyListValue] = [:]
            for (key, item) in members {
                guard let key = key.base as? String, let value = PropertyListValue(foundation: item) else { return nil }
                converted[key] = value
            }
            self = .dictionary(converted)
        } else {
            return nil
        }
    }
}
