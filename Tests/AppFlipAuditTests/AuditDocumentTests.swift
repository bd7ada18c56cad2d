import AppFlipAudit
import AppFlipCore
import FoundationEssentials
import Testing

/// docs/audit.md is the contract: each target's table is the catalogue's, generated from it (ids, levels,
/// titles, rules, sources and needs), between `<!-- catalogue: TARGET -->` and `<!-- /catalogue -->`.
/// `APPFLIP_WRITE_CATALOGUE=1 swift test --filter AuditDocumentTests` writes the tables from the catalogue.
@Suite struct AuditDocumentTests {
    static let path: URL = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "docs/audit.md")

    static func block(_ target: AuditTarget) -> (start: String, end: String) {
        ("<!-- catalogue: \(target.rawValue) -->\n", "\n<!-- /catalogue -->")
    }

    /// The document with each target's table between its markers replaced by `table(target)`.
    static func replacingTables(in document: String, _ table: (AuditTarget) -> String) throws -> String {
        var text = document
        for target in AuditTarget.allCases {
            let (start, end) = block(target)
            let opening = try #require(text.firstRange(of: start), "docs/audit.md has no \(start)")
            let closing = try #require(text[opening.upperBound...].firstRange(of: end), "docs/audit.md: \(start) is not closed")
            text.replaceSubrange(opening.upperBound..<closing.lowerBound, with: table(target))
        }
        return text
    }

    @Test func eachTargetsTableIsTheCatalogues() throws {
        let document = try String(contentsOf: Self.path, encoding: .utf8)
        let generated = try Self.replacingTables(in: document, AuditCatalogue.markdownTable(of:))
        if ProcessInfo.processInfo.environment["APPFLIP_WRITE_CATALOGUE"] == "1", generated != document {
            try generated.write(to: Self.path, atomically: true, encoding: .utf8)
            return
        }
        for target in AuditTarget.allCases {
            let (start, end) = Self.block(target)
            let written = document.firstRange(of: start).flatMap { opening in
                document[opening.upperBound...].firstRange(of: end).map { String(document[opening.upperBound..<$0.lowerBound]) }
            }
            #expect(
                written == AuditCatalogue.markdownTable(of: target),
                "docs/audit.md's \(target.rawValue) table is not the catalogue's; it should read:\n\(AuditCatalogue.markdownTable(of: target))"
            )
        }
    }

    @Test func everyTargetHasChecksAndEveryCheckAnID() {
        for target in AuditTarget.allCases { #expect(!AuditCatalogue.checks(of: target).isEmpty) }
        #expect(Set(AuditCatalogue.all.map(\.id)).count == AuditCatalogue.all.count)
        for check in AuditCatalogue.all {
            #expect(check.requires.contains(AuditNeed(target: check.target)), "\(check.id) does not require its target")
            #expect(check.establishes.map { !check.requires.contains($0) } ?? true, "\(check.id) requires what it establishes")
            #expect(AuditCatalogue.spec(id: check.id) == check)
        }
    }
}
