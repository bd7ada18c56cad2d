import AppFlipProtocol
import FoundationEssentials
import Testing

/// docs/protocol.md is the contract: every error code the daemon can send has a row in one of its error
/// tables, and every row names a code that exists.
@Suite struct ProtocolDocumentTests {
    static let document: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        let path = components.joined(separator: "/") + "/docs/protocol.md"
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }()

    /// The first column of every `| code | when |` table.
    static var documentedCodes: [String] {
        var codes: [String] = []
        var inTable = false
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| code |") {
                inTable = true
            } else if !line.hasPrefix("|") {
                inTable = false
            } else if inTable, line.hasPrefix("| `") {
                codes.append(String(line.dropFirst(3).prefix { $0 != "`" }))
            }
        }
        return codes
    }

    @Test func everyErrorCodeHasARowAndEveryRowACode() {
        let documented = Self.documentedCodes
        #expect(!documented.isEmpty, "no error tables found in docs/protocol.md")
        let codes = Set(ErrorCode.allCases.map(\.rawValue))
        #expect(codes.subtracting(documented).sorted() == [], "codes without a row in docs/protocol.md")
        #expect(Set(documented).subtracting(codes).sorted() == [], "rows naming no code")
        #expect(documented.count == Set(documented).count, "a code with two rows")
    }
}
