import AppFlipCore
import FoundationEssentials
import Testing

/// docs/audit.md is the contract: its table lists every check of the catalogue, with the same rule and
/// source, and nothing else.
@Suite struct AuditDocumentTests {
    static let document: String = {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appending(path: "docs/audit.md"), encoding: .utf8)) ?? ""
    }()

    @Test func everyCheckIsDocumentedWithItsRuleAndSource() {
        #expect(!Self.document.isEmpty)
        for check in AuditCheck.allCases {
            #expect(Self.document.contains("| `\(check.rawValue)` | \(check.rule) | \(check.source) |"), "\(check.rawValue)")
        }
        let documented = Self.document.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.contains(".") }
            .compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
            .filter { $0.contains(".") && !$0.contains(" ") && !$0.contains("/") }
        #expect(Set(documented) == Set(AuditCheck.allCases.map(\.rawValue)))
    }

    @Test func everyTargetHasChecksAndEveryCheckAnID() {
        for target in AuditTarget.allCases { #expect(AuditCheck.allCases.contains { $0.target == target }) }
        #expect(Set(AuditCheck.allCases.map(\.rawValue)).count == AuditCheck.allCases.count)
    }
}
