import FoundationEssentials

/// A token endpoint JSON value: a string or an integer.
enum TokenResponseValue: Sendable, Hashable, Encodable {
    case string(String)
    case integer(Int)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let string): try container.encode(string)
        case .integer(let integer): try container.encode(integer)
        }
    }
}
