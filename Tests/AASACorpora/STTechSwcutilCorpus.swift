public import Foundation

/// st-tech/universal-links-test's cases in `sttech-swcutil` (see its SOURCE.md), whose CI checks them against
/// Apple's `swcutil`: one `appflip aasa match --stdin` line per case, and `swcutil`'s decision for each.
public enum STTechSwcutilCorpus {
    /// The corpus's folder.
    public static let directory = Bundle.module.resourceURL!.appendingPathComponent("sttech-swcutil")

    /// The cases' lines, and `swcutil`'s decision by case id.
    public static func load() throws -> (lines: [String], expected: [Int: String]) {
        let cases = try String(contentsOf: directory.appendingPathComponent("sttech-swcutil-cases.jsonl"), encoding: .utf8)
        let table = try String(contentsOf: directory.appendingPathComponent("sttech-swcutil-expected.tsv"), encoding: .utf8)
        var expected: [Int: String] = [:]
        for row in table.split(separator: "\n") {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            if let id = Int(fields[0]), let decision = fields.last { expected[id] = String(decision) }
        }
        return (cases.split(separator: "\n").map(String.init), expected)
    }
}
