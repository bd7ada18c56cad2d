import Foundation

/// The 223 real apple-app-site-association files in `Corpora/aasa-real` (see its README.md) and the URL
/// decisions recorded for them.
struct RealCorpus: Sendable {
    struct File: Sendable {
        let name: String
        let bytes: [UInt8]
    }

    struct MatchCase: Sendable {
        let file: String
        let appID: String
        let domain: String
        let url: String
        let expected: String
    }

    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Corpora/aasa-real")

    let files: [File]
    let matchCases: [MatchCase]

    static let shared: RealCorpus = {
        do {
            return try RealCorpus()
        } catch {
            fatalError("cannot read the real AASA corpus: \(error)")
        }
    }()

    private init() throws {
        let sources = try String(contentsOf: Self.directory.appendingPathComponent("files/SOURCES.tsv"), encoding: .utf8)
        files = try sources.split(separator: "\n").dropFirst().map { row in
            let name = String(row.prefix { $0 != "\t" })
            let url = Self.directory.appendingPathComponent("files").appendingPathComponent(name)
            return File(name: name, bytes: Array(try Data(contentsOf: url)))
        }
        let table = try String(contentsOf: Self.directory.appendingPathComponent("match-cases.tsv"), encoding: .utf8)
        matchCases = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { row in
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return MatchCase(file: fields[0], appID: fields[1], domain: fields[2], url: fields[3], expected: fields[4])
        }
    }
}
