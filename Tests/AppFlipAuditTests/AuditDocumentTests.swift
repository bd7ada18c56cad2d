import AppFlipAudit
import AppFlipCore
import FoundationEssentials
import Testing

/// docs/audit.md is the contract: each target's table is the catalogue's, generated from it (ids, levels,
/// titles, rules, sources and needs), between `<!-- catalogue: TARGET -->` and `<!-- /catalogue -->`; so are
/// the list of needs and the list of could-not-run causes (`<!-- needs -->`, `<!-- causes -->`).
/// `APPFLIP_WRITE_CATALOGUE=1 swift test --filter AuditDocumentTests` writes the tables from the catalogue.
@Suite struct AuditDocumentTests {
    static let path: URL = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "docs/audit.md")

    /// Every generated block of docs/audit.md: its markers and what the catalogue writes between them.
    static let blocks: [(start: String, end: String, text: String)] =
        AuditTarget.allCases.map { ("<!-- catalogue: \($0.rawValue) -->\n", "\n<!-- /catalogue -->", AuditCatalogue.markdownTable(of: $0)) } + [
            ("<!-- needs -->\n", "\n<!-- /needs -->", AuditCatalogue.markdownNeeds()),
            ("<!-- causes -->\n", "\n<!-- /causes -->", AuditCatalogue.markdownCauses()),
        ]

    /// The document with each block between its markers replaced by the catalogue's.
    static func replacingBlocks(in document: String) throws -> String {
        var text = document
        for (start, end, generated) in blocks {
            let opening = try #require(text.firstRange(of: start), "docs/audit.md has no \(start)")
            let closing = try #require(text[opening.upperBound...].firstRange(of: end), "docs/audit.md: \(start) is not closed")
            text.replaceSubrange(opening.upperBound..<closing.lowerBound, with: generated)
        }
        return text
    }

    @Test func eachTargetsTableIsTheCatalogues() throws {
        let document = try String(contentsOf: Self.path, encoding: .utf8)
        let generated = try Self.replacingBlocks(in: document)
        if ProcessInfo.processInfo.environment["APPFLIP_WRITE_CATALOGUE"] == "1", generated != document {
            try generated.write(to: Self.path, atomically: true, encoding: .utf8)
            return
        }
        for (start, end, text) in Self.blocks {
            let written = document.firstRange(of: start).flatMap { opening in
                document[opening.upperBound...].firstRange(of: end).map { String(document[opening.upperBound..<$0.lowerBound]) }
            }
            #expect(written == text, "docs/audit.md's block \(start) is not the catalogue's; it should read:\n\(text)")
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
