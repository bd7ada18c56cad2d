import AASACorpora
import Foundation
import Testing

@testable import AppFlipCore

/// st-tech/universal-links-test's 17 cases (`STTechSwcutilCorpus`), whose CI checks them against Apple's
/// `swcutil`, through the library (AppFlipCLITests' suite of the same name runs them through `appflip aasa
/// match --stdin`).
@Suite struct STTechSwcutilTests {
    @Test func all17AgreeWithSwcutilThroughTheLibrary() throws {
        let (lines, expected) = try STTechSwcutilCorpus.load()
        var agreed = 0
        for line in lines {
            guard case .object(let fields) = try JSONValue(parsing: Array(line.utf8)), case .number(let id)? = fields["id"],
                let document = fields["aasa"], case .string(let appID)? = fields["appId"], case .string(let url)? = fields["url"]
            else {
                Issue.record("malformed case: \(line)")
                continue
            }
            let decision: String
            do {
                decision = try AssociationFile(document: document).decide(appID: appID, url: try RawURL(url)).outcome.rawValue
            } catch {
                decision = "error: \(error)"
            }
            #expect(decision == expected[Int(id)], "case \(Int(id))")
            if decision == expected[Int(id)] { agreed += 1 }
        }
        print("st-tech swcutil cases (library): \(agreed)/\(expected.count)")
        #expect(agreed == 17 && expected.count == 17)
    }
}
