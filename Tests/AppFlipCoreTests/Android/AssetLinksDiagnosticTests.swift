import AppFlipCore
import Testing

/// One statement list per diagnostic code: the code, the pointer, the line and column, and what each
/// verifier does with the entry.
@Suite struct AssetLinksDiagnosticTests {
    static let fingerprint = Array(repeating: "A1", count: 32).joined(separator: ":")

    static func androidStatement(package: String = "com.example.app", fingerprints: String? = nil, extra: String = "") -> String {
        let list = fingerprints ?? "[\"\(fingerprint)\"]"
        return """
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "\(package)", "sha256_cert_fingerprints": \(list)}\(extra)}]
            """
    }

    static func load(_ text: String) -> StatementList { StatementList(json: Array(text.utf8)) }

    static func only(_ code: AssetLinksDiagnostic.Code, in list: StatementList) throws -> AssetLinksDiagnostic {
        let found = list.diagnostics.filter { $0.code == code }
        try #require(found.count == 1, "\(list.diagnostics)")
        return found[0]
    }

    @Test func aCleanStatementHasNoFinding() {
        let list = Self.load(Self.androidStatement())
        #expect(list.diagnostics == [])
        #expect(list.googleStatements.count == 1)
        #expect(list.statementServiceStatements?.count == 1)
    }

    @Test func invalidJSONNamesLineAndColumn() throws {
        let list = Self.load("[\n  {\"relation\": [\"a/b\"],}\n]")
        let diagnostic = try Self.only(.invalidJSON, in: list)
        #expect(diagnostic.position == JSONSourcePosition(line: 2, column: 24))
        #expect(list.refusal == diagnostic)
        #expect(list.statementServiceStatements == nil)
    }

    @Test func htmlIsNamedAsHTML() throws {
        let list = Self.load("<!doctype html>\n<html><body>App</body></html>")
        let diagnostic = try Self.only(.htmlInsteadOfJSON, in: list)
        #expect(diagnostic.position?.line == 1)
        #expect(list.refusal?.code == .htmlInsteadOfJSON)
    }

    @Test func anObjectIsNotAList() throws {
        #expect(try Self.only(.rootNotArray, in: Self.load("{\"relation\": []}")).pointer == "")
        #expect(try Self.only(.aasaDocument, in: Self.load("{\"applinks\": {\"details\": []}}")).position == JSONSourcePosition(line: 1, column: 1))
    }

    @Test func anEmptyListIsAWarning() throws {
        let list = Self.load("[]")
        #expect(try Self.only(.emptyList, in: list).severity == .warning)
        #expect(list.refusal == nil)
    }

    @Test func duplicateKeysAreReported() throws {
        let text =
            "[{\"relation\": [\"a/b\"], \"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}]"
        #expect(try Self.only(.duplicateKey, in: Self.load(text)).pointer == "/0/relation")
    }

    @Test func aStatementThatIsNoObjectFailsStatementService() throws {
        let list = Self.load("[\"statement\"]")
        #expect(try Self.only(.statementNotObject, in: list).pointer == "/0")
        #expect(list.entries[0].google == .skipped)
        #expect(list.entries[0].statementService == .failsHost)
    }

    @Test func includes() throws {
        let both = Self.load("[{\"include\": \"https://a.example/more.json\", \"target\": {}}]")
        #expect(try Self.only(.includeWithStatementFields, in: both).pointer == "/0/target")
        #expect(both.entries[0].google == .skipped)
        #expect(both.entries[0].statementService == .kept)
        let mailto = Self.load("[{\"include\": \"mailto://user@a.example\"}]")
        #expect(try Self.only(.invalidInclude, in: mailto).message.contains("non-HTTP"))
        let port = Self.load("[{\"include\": \"https://a.example:999999\"}]")
        #expect(try Self.only(.invalidInclude, in: port).pointer == "/0/include")
    }

    @Test func relations() throws {
        let missing = Self.load("[{\"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}]")
        #expect(try Self.only(.missingRelation, in: missing).pointer == "/0")
        #expect(missing.entries[0].statementService == .skipped)
        let number = Self.load("[{\"relation\": [7], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}]")
        #expect(try Self.only(.relationNotStrings, in: number).pointer == "/0/relation/0")
        let malformed = Self.load(
            "[{\"relation\": [\"delegate_permission/Common.handle_all_urls\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example\"}}]"
        )
        let diagnostic = try Self.only(.malformedRelation, in: malformed)
        #expect(diagnostic.message.contains("'detail'"))
        #expect(malformed.entries[0].google == .skipped)
        #expect(malformed.entries[0].statementService == .failsHost)
    }

    @Test func targets() throws {
        let missing = Self.load("[{\"relation\": [\"delegate_permission/common.handle_all_urls\"]}]")
        #expect(try Self.only(.missingTarget, in: missing).pointer == "/0")
        #expect(missing.entries[0].statementService == .skipped)
        let unknown = Self.load("[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"ios_app\"}}]")
        #expect(try Self.only(.unknownNamespace, in: unknown).pointer == "/0/target/namespace")
        #expect(unknown.entries[0].statementService == .failsHost)
    }

    @Test func aMisCasedKeyIsNamed() throws {
        let text =
            "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"android_app\", \"package_name\": \"com.example.app\", \"Sha256_cert_fingerprints\": [\"\(Self.fingerprint)\"]}}]"
        let list = Self.load(text)
        let diagnostic = try Self.only(.misCasedKey, in: list)
        #expect(diagnostic.pointer == "/0/target/Sha256_cert_fingerprints")
        #expect(!list.diagnostics.contains { $0.code == .missingFingerprints })
        #expect(list.entries[0].statementService == .failsHost)
    }

    @Test func aasaKeysAreNamed() throws {
        let list = Self.load(Self.androidStatement(extra: ", \"paths\": [\"/app/*\"]"))
        let diagnostic = try Self.only(.aasaKey, in: list)
        #expect(diagnostic.pointer == "/0/paths")
        #expect(diagnostic.severity == .warning)
        #expect(list.googleStatements.count == 1)
    }

    @Test func numbersMakeStatementServiceRefuseTheFile() throws {
        let list = Self.load(Self.androidStatement(extra: ", \"priority\": 1"))
        #expect(try Self.only(.valueStatementServiceRefuses, in: list).pointer == "/0/priority")
        #expect(list.googleStatements.count == 1)
        #expect(list.statementServiceStatements == nil)
    }

    @Test func packageNames() throws {
        let empty = Self.load(Self.androidStatement(package: ""))
        #expect(try Self.only(.missingPackageName, in: empty).pointer == "/0/target/package_name")
        #expect(empty.entries[0].statementService == .failsHost)
        let invalid = Self.load(Self.androidStatement(package: "com.1example"))
        #expect(try Self.only(.invalidPackageName, in: invalid).pointer == "/0/target/package_name")
        #expect(invalid.entries[0].google == .skipped)
        #expect(invalid.entries[0].statementService == .kept)
    }

    @Test(arguments: [
        ("[]", AssetLinksDiagnostic.Code.missingFingerprints),
        ("[1]", .fingerprintNotString),
        ("[\"\(fingerprint.lowercased())\"]", .lowercaseFingerprint),
        ("[\"\(Array(repeating: "A1", count: 20).joined(separator: ":"))\"]", .sha1Fingerprint),
        ("[\"<SHA256 fingerprint>\"]", .placeholderFingerprint),
        ("[\"\(fingerprint).\"]", .fingerprintTrailingCharacter),
        ("[\"SHA256: \(fingerprint)\"]", .fingerprintLabel),
        ("[\"\(Array(repeating: "A1", count: 31).joined(separator: ":"))\"]", .fingerprintWrongLength),
        ("[\"\(Array(repeating: "A1", count: 32).joined())\"]", .malformedFingerprint),
    ])
    func fingerprints(list: String, code: AssetLinksDiagnostic.Code) throws {
        let loaded = Self.load(Self.androidStatement(fingerprints: list))
        let diagnostic = try Self.only(code, in: loaded)
        #expect(diagnostic.position?.line == 2)
        #expect(loaded.entries[0].google == .skipped)
    }

    @Test(arguments: [
        ("https://a.example/app", AssetLinksDiagnostic.Code.siteWithPath),
        ("https://a.example/", .siteWithPath),
        ("https://a.example?x=1", .siteWithQueryOrFragment),
        ("https://user@a.example", .siteWithUserInfo),
        ("ftp://a.example", .siteNotHTTP),
        ("a.example", .invalidSite),
        ("https://a.example:99999", .invalidSite),
    ])
    func sites(site: String, code: AssetLinksDiagnostic.Code) throws {
        let list = Self.load("[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"web\", \"site\": \"\(site)\"}}]")
        #expect(try Self.only(code, in: list).pointer == "/0/target/site")
        #expect(list.entries[0].google == .skipped)
        // StatementService accepts exactly the lone "/" of these, and refuses the others.
        #expect(list.entries[0].statementService == (site == "https://a.example/" ? .kept : .failsHost))
    }

    @Test func aWebTargetWithoutSite() throws {
        let list = Self.load("[{\"relation\": [\"a/b\"], \"target\": {\"namespace\": \"web\"}}]")
        #expect(try Self.only(.missingSite, in: list).pointer == "/0/target")
    }

    @Test func dynamicComponents() throws {
        let extensions = """
            , "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [
              {"/": "/app/*", "?": {"ref": "*"}, "exclude": true, "comments": "no"}, {"/": ""}, "bad"]}}
            """
        let list = Self.load(Self.androidStatement(extra: extensions))
        let findings = list.diagnostics.filter { $0.code == .invalidDynamicComponent }.map(\.pointer)
        let base = "/0/relation_extensions/delegate_permission~1common.handle_all_urls/dynamic_app_link_components"
        #expect(findings == [base + "/1/~1", base + "/2"])
        #expect(list.entries[0].statementService == .failsHost)
        let rules = try #require(list.googleStatements.first?.dynamicRules)
        #expect(rules.count == 2)
        #expect(rules[0] == DynamicAppLinkRule(exclude: true, path: "/app/*", query: ["ref": "*"], comments: "no", pointer: base + "/0"))
    }

    @Test func everyCodeHasATitle() {
        #expect(Set(AssetLinksDiagnostic.Code.allCases.map(\.rawValue)).count == AssetLinksDiagnostic.Code.allCases.count)
        #expect(AssetLinksDiagnostic.Code.allCases.allSatisfy { !$0.title.isEmpty })
    }
}
