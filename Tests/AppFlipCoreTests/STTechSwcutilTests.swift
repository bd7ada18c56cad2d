import Foundation
import Testing

@testable import AppFlipCore

/// st-tech/universal-links-test's 17 cases (`Corpora/sttech-swcutil`, see its SOURCE.md), whose CI checks them
/// against Apple's `swcutil`: through the library and through `appflip aasa match --stdin`.
@Suite struct STTechSwcutilTests {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Corpora/sttech-swcutil")

    /// The cases' lines, and `swcutil`'s decision by case id.
    static func corpus() throws -> (lines: [String], expected: [Int: String]) {
        let cases = try String(contentsOf: directory.appendingPathComponent("sttech-swcutil-cases.jsonl"), encoding: .utf8)
        let table = try String(contentsOf: directory.appendingPathComponent("sttech-swcutil-expected.tsv"), encoding: .utf8)
        var expected: [Int: String] = [:]
        for row in table.split(separator: "\n") {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            if let id = Int(fields[0]), let decision = fields.last { expected[id] = String(decision) }
        }
        return (cases.split(separator: "\n").map(String.init), expected)
    }

    @Test func all17AgreeWithSwcutilThroughTheLibrary() throws {
        let (lines, expected) = try Self.corpus()
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

    @Test func all17AgreeWithSwcutilThroughTheCommandLine() async throws {
        let (lines, expected) = try Self.corpus()
        let run = try await AppFlipExecutable.run(["aasa", "match", "--stdin"], input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        var agreed = 0
        for answer in run.stdout.split(separator: "\n") {
            guard case .object(let fields) = try JSONValue(parsing: Array(answer.utf8)), case .number(let id)? = fields["id"],
                case .string(let decision)? = fields["decision"]
            else { continue }
            #expect(decision == expected[Int(id)], "case \(Int(id))")
            if decision == expected[Int(id)] { agreed += 1 }
        }
        print("st-tech swcutil cases (appflip aasa match --stdin): \(agreed)/\(expected.count)")
        #expect(agreed == 17)
    }
}
