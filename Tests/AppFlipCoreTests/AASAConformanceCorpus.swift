import Foundation
import Testing
@testable import AppFlipCore

/// The blazingly-aasa conformance corpus in `Corpora/aasa-conformance` (see its SOURCE.md and LICENSE-NOTICE.md).
struct AASAConformanceCorpus: Decodable {
    struct MatchingCase: Decodable, CustomTestStringConvertible {
        let name: String
        let feature: String
        let aasa: JSONValue
        let domain: String
        let appId: String
        let url: String
        let expect: String

        var testDescription: String { name }
    }

    struct ValidationCase: Decodable, CustomTestStringConvertible {
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
            return try JSONDecoder().decode(AASAConformanceCorpus.self, from: data)
        } catch {
            fatalError("cannot load the AASA conformance corpus: \(error)")
        }
    }()
}

