import AppFlipCore
import Foundation

/// The Android corpora in `Corpora/` (dal-compat, android-patterns, assetlinks-real; each with its licence and
/// SOURCE.md), read line by line with the core's own JSON parser.
enum AndroidCorpus {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Corpora")

    static func bytes(_ path: String) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: directory.appendingPathComponent(path)))
        } catch {
            fatalError("cannot read the corpus file \(path): \(error)")
        }
    }

    /// Every line of a JSON Lines file.
    static func lines(_ path: String) -> [JSONValue] {
        bytes(path).split(separator: UInt8(ascii: "\n")).map { line in
            do {
                return try JSONValue(parsing: line)
            } catch {
                fatalError("\(path): a line is not JSON: \(error)")
            }
        }
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    var intValue: Int? {
        if case .number(let value) = self { Int(value) } else { nil }
    }

    var arrayValue: [JSONValue] {
        if case .array(let values) = self { values } else { [] }
    }
}
