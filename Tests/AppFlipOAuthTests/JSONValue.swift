import AppFlipCore
import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import Testing

@testable import AppFlipOAuth

/// Enough JSON to read token responses.
enum JSONValue: Decodable, Equatable {
    case string(String)
    case number(Double)
    case array([JSONValue])
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .other
        }
    }
}
