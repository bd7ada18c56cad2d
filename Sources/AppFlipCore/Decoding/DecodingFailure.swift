/// What a `DecodingError` points at and what went wrong there, in the terms the protocol's error replies
/// and the configuration files' errors both use: the JSON path of the field and the kind of value expected.
package struct DecodingFailure: Sendable {
    package enum Problem: Sendable, Equatable {
        /// A required key is absent.
        case missing
        /// The value has another JSON type; `expected` reads "a string", "an integer", "an array", …
        case typeMismatch(expected: String)
        /// The value is `null` where `expected` was required.
        case null(expected: String)
        /// The value has the right type but is refused: `reason` is the decoder's or the type's own words.
        case invalid(reason: String)
        /// The document as a whole is not JSON.
        case notJSON
    }

    /// `clients[0].redirectURIs`: keys joined by dots, array indices in brackets; nil for the whole document.
    package let field: String?
    package let problem: Problem

    package init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            field = Self.field(context.codingPath + [key])
            problem = .missing
        case .typeMismatch(let type, let context):
            field = Self.field(context.codingPath)
            problem = .typeMismatch(expected: Self.describe(type))
        case .valueNotFound(let type, let context):
            field = Self.field(context.codingPath)
            problem = .null(expected: Self.describe(type))
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            field = nil
            problem = .notJSON
        case .dataCorrupted(let context):
            field = Self.field(context.codingPath)
            problem = .invalid(reason: context.debugDescription)
        @unknown default:
            field = nil
            problem = .invalid(reason: "\(error)")
        }
    }

    /// `clients[0].redirectURIs` for that coding path; nil for an empty one.
    package static func field(_ codingPath: [any CodingKey]) -> String? {
        guard !codingPath.isEmpty else { return nil }
        var field = ""
        for key in codingPath {
            if let index = key.intValue {
                field += "[\(index)]"
            } else {
                field += field.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return field
    }

    /// The JSON kind of value a Swift type decodes from, with its article.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is UInt64.Type, is Int32.Type, is UInt32.Type: "an integer"
        case is Double.Type: "a number"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
