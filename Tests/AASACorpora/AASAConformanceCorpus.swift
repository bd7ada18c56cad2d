public import AppFlipCore
public import Foundation
public import Testing

/// The blazingly-aasa conformance corpus in `aasa-conformance` (see its SOURCE.md and LICENSE-NOTICE.md),
/// read with the core's own JSON parser.
public struct AASAConformanceCorpus: Sendable {
    public struct MatchingCase: CustomTestStringConvertible, Sendable {
        public let name: String
        public let feature: String
        public let aasa: JSONValue
        public let domain: String
        public let appId: String
        public let url: String
        public let expect: String

        public var testDescription: String { name }
    }

    public struct ValidationCase: CustomTestStringConvertible, Sendable {
        public let name: String
        public let aasa: JSONValue
        public let expectCodes: [String]

        public var testDescription: String { name }
    }

    public let matching: [MatchingCase]
    public let validation: [ValidationCase]

    /// The corpus's folder: `cases.json` and swcutil's probes.
    public static let directory = Bundle.module.resourceURL!.appendingPathComponent("aasa-conformance")

    public static let shared: AASAConformanceCorpus = {
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
