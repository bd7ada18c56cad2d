import Foundation

/// One server configuration's expected verdicts (`Expected/NAME.tsv`): `check<TAB>verdict<TAB># evidence` per
/// line, each verified by hand on the wire against the check's rule; `#` lines are comments.
struct MatrixTable {
    /// The table's name, e.g. `authlib-quickstart`.
    let name: String
    /// Each check id's expected verdict (`pass`, `fail`, `warning`, `skipped`, `could-not-run`), in the file's order.
    let verdicts: [(check: String, verdict: String)]

    static let outcomes: Set<String> = ["pass", "fail", "warning", "skipped", "could-not-run"]

    /// Reads `Expected/NAME.tsv` from the test bundle.
    static func load(_ name: String) throws -> MatrixTable {
        guard let url = Bundle.module.url(forResource: name, withExtension: "tsv", subdirectory: "Expected") else {
            throw MatrixError("no table Expected/\(name).tsv")
        }
        return try MatrixTable(name: name, text: String(contentsOf: url, encoding: .utf8))
    }

    init(name: String, text: String) throws {
        self.name = name
        var verdicts: [(check: String, verdict: String)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, Self.outcomes.contains(String(fields[1])), fields[2].hasPrefix("# "), fields[2].count > 2 else {
                throw MatrixError("\(name).tsv line \(index + 1): not check<TAB>verdict<TAB># evidence")
            }
            guard !verdicts.contains(where: { $0.check == fields[0] }) else {
                throw MatrixError("\(name).tsv line \(index + 1): \(fields[0]) listed twice")
            }
            verdicts.append((String(fields[0]), String(fields[1])))
        }
        self.verdicts = verdicts
    }

    /// The expected verdict of `check`, if the table lists it.
    func verdict(of check: String) -> String? {
        verdicts.first { $0.check == check }?.verdict
    }
}

/// The matrix could not be read or run.
struct MatrixError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
