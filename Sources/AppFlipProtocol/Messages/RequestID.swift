import FoundationEssentials

/// The `id` a client puts on each request; its reply carries it back unchanged.
///
/// A JSON integer or string, so that scripts can use whatever they already have (a counter, a UUID).
public enum RequestID: Sendable, Hashable, Codable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    /// Decodes a number whose value is an integer in the signed 64-bit range (`1e3` is 1000), or a string;
    /// anything else is refused. The number goes through `Decimal`, whose 38 digits hold every such integer
    /// exactly, where `JSONDecoder`'s `Int64` refuses `9223372036854775807.0` and reads `1e-400` as 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Decimal.self) {
            guard let integer = Int64(number.description) else {
                throw DecodingError.typeMismatch(
                    RequestID.self,
                    .init(codingPath: decoder.codingPath, debugDescription: "`id` must be a string or an integer in the signed 64-bit range")
                )
            }
            self = .number(integer)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            throw DecodingError.typeMismatch(
                RequestID.self,
                .init(codingPath: decoder.codingPath, debugDescription: "`id` must be a string or an integer in the signed 64-bit range")
            )
        }
    }

    /// Encodes the id as it came: a JSON integer or string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        }
    }

    /// The id as it appears in JSON, strings quoted.
    public var description: String {
        switch self {
        case .number(let number): String(number)
        case .string(let string): "\"\(string)\""
        }
    }
}
