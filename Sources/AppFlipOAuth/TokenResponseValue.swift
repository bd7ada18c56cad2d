import FoundationEssentials

/// A token endpoint JSON value: a string, an integer or a list of strings (the metadata's lists).
enum TokenResponseValue: Sendable, Hashable, Encodable {
    case string(String)
    case integer(Int)
    case strings([String])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let string): try container.encode(string)
        case .integer(let integer): try container.encode(integer)
        case .strings(let strings): try container.encode(strings)
        }
    }
}
