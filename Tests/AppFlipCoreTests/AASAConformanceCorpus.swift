import AppFlipCore
import Foundation
import Testing

@testable import AppFlipCore

/// The blazingly-aasa conformance corpus in `Corpora/aasa-conformance` (see its SOURCE.md and LICENSE-NOTICE.md),
/// read with the core's own JSON parser.
struct AASAConformanceCorpus {
    struct MatchingCase: CustomTestStringConvertible, Sendable {
        let name: String
        let feature: String
        let aasa: JSONValue
        let domain: String
        let appId: String
        let url: String
        let expect: String

        var testDescription: String { name }
    }

    struct ValidationCase: CustomTestStringConvertible, Sendable {
        let name: String
        let aasa: JSONValue
        let expectCodes: [String]

        var testDescription: String { name }
    }

    let matching: [MatchingCase]
    let validation: [ValidationCase]

    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Corpora/aasa-conformance")

    static let shared: AASAConformanceCorpus = {
        do {
            let data = try Data(contentsOf: directory.appendingPathComponent("cases.json"))
            return try AASAConformanceCorpus(try JSONValue(parsing: Array(data)))
        } catch {
            fatalError("cannot load the AASA conformance corpus: \(error)")
        }
    }()

    private struct Malformed: Error {
        let field: String
    }

    private init(_ document: JSONValue) throws {
        let root = try Self.object(document, "root")
        matching = try Self.array(root["matching"], "matching").map { value in
            let fields = try Self.object(value, "matching case")
            return MatchingCase(
                name: try Self.string(fields["name"], "name"),
                feature: try Self.string(fields["feature"], "feature"),
                aasa: try fields["aasa"] ?? { throw Malformed(field: "aasa") }(),
                domain: try Self.string(fields["domain"], "domain"),
                appId: try Self.string(fields["appId"], "appId"),
                url: try Self.string(fields["url"], "url"),
                expect: try Self.string(fields["expect"], "expect")
            )
        }
        validation = try Self.array(root["validation"], "validation").map { value in
            let fields = try Self.object(value, "validation case")
            return ValidationCase(
                name: try Self.string(fields["name"], "name"),
                aasa: try fields["aasa"] ?? { throw Malformed(field: "aasa") }(),
                expectCodes: try Self.array(fields["expectCodes"], "expectCodes").map { try Self.string($0, "code") }
            )
        }
    }

    private static func object(_ value: JSONValue?, _ field: String) throws -> [String: JSONValue] {
        guard case .object(let members)? = value else { throw Malformed(field: field) }
        return members
    }

    private static func array(_ value: JSONValue?, _ field: String) throws -> [JSONValue] {
        guard case .array(let items)? = value else { throw Malformed(field: field) }
        return items
    }

    private static func string(_ value: JSONValue?, _ field: String) throws -> String {
        guard case .string(let text)? = value else { throw Malformed(field: field) }
        return text
    }
}
