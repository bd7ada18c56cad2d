import AppFlipCore
import Testing

/// Real published assetlinks.json files and synthetic ones for the remaining fault classes
/// (`Corpora/assetlinks-real`, licences per file in its SOURCE.md), with the facts in expected.jsonl.
@Suite struct AssetLinksRealCorpusTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let facts: JSONValue
        var file: String { facts["file"]!.stringValue! }
        var testDescription: String { file }
    }

    static let cases = AndroidCorpus.lines("assetlinks-real/expected.jsonl").map(Case.init)

    /// Each fault class of expected.jsonl and the codes that name it.
    static let faultCodes: [String: Set<AssetLinksDiagnostic.Code>] = [
        "invalid_json": [.invalidJSON, .htmlInsteadOfJSON],
        "html_body": [.htmlInsteadOfJSON],
        "fingerprint_placeholder": [.placeholderFingerprint],
        "fingerprints_empty": [.missingFingerprints],
        "fingerprints_missing": [.missingFingerprints],
        "fingerprint_label_prefix": [.fingerprintLabel],
        "fingerprint_sha1": [.sha1Fingerprint],
        "fingerprint_lowercase": [.lowercaseFingerprint],
        "fingerprint_trailing_dot": [.fingerprintTrailingCharacter],
        "fingerprints_key_case_typo": [.misCasedKey],
        "relation_malformed": [.malformedRelation],
        "aasa_paths_key": [.aasaKey],
        "package_name_empty": [.missingPackageName],
        "package_name_invalid": [.invalidPackageName],
        "unknown_namespace": [.unknownNamespace],
        "web_site_with_path": [.siteWithPath],
        "web_site_trailing_slash": [.siteWithPath],
    ]

    @Test func theCorpusIsWhole() {
        #expect(Self.cases.count == 66)
    }

    @Test(arguments: cases)
    func loadsOrIsRefusedWithLineAndColumn(_ testCase: Case) {
        let list = StatementList(json: AndroidCorpus.bytes("assetlinks-real/files/\(testCase.file)"))
        #expect((list.refusal == nil) == testCase.facts["json_valid"]!.boolValue!)
        for diagnostic in list.diagnostics {
            #expect(diagnostic.position != nil, "\(diagnostic)")
        }
        if testCase.facts["json_valid"]?.boolValue == true {
            #expect(list.entries.count == testCase.facts["statements"]!.intValue!)
        }
    }

    @Test(arguments: cases)
    func everyFaultClassIsNamed(_ testCase: Case) throws {
        let list = StatementList(json: AndroidCorpus.bytes("assetlinks-real/files/\(testCase.file)"))
        let codes = Set(list.diagnostics.map(\.code))
        let faults = testCase.facts["fault_classes"]!.arrayValue.compactMap(\.stringValue)
        for fault in faults {
            let naming = try #require(Self.faultCodes[fault], "no code is mapped to \(fault)")
            #expect(!codes.isDisjoint(with: naming), "\(fault) is not named; found \(list.diagnostics)")
        }
        if faults.isEmpty {
            #expect(list.diagnostics.filter { $0.severity == .error } == [])
        }
    }

    /// Google's verifier: the outcome, the error code, and which (package, fingerprints) it still honours.
    @Test(arguments: cases)
    func googleVerifierAgrees(_ testCase: Case) {
        let expected = testCase.facts["dal_api"]!
        let verification = GoogleVerifier.verify(site: Self.site, responses: Self.responses(testCase))
        #expect(verification.outcome == expected["outcome"]!.stringValue)
        // The API's codes exactly, and each named beside the diagnostic that causes it.
        let codes = expected["error_code"]?.stringValue.map { [$0] } ?? []
        #expect(verification.errors.map(\.rawValue) == codes)
        let beside = verification.documents.flatMap { document in document.list.diagnostics.compactMap(document.list.apiErrorCode(of:)) }
        #expect(Set(beside.map(\.rawValue)) == Set(codes))
        #expect(Self.targets(verification.statements, deviceFingerprintsOnly: false) == Self.expectedTargets(expected))
        // Which statements it keeps and which it skips, by index.
        let list = StatementList(json: AndroidCorpus.bytes("assetlinks-real/files/\(testCase.file)"))
        let kept = list.entries.indices.filter { list.entries[$0].google == .kept }
        let skipped = list.entries.indices.filter { list.entries[$0].google == .skipped }
        if expected["outcome"]!.stringValue! == "SUCCESS" || !expected["kept_statements"]!.arrayValue.isEmpty
            || !expected["skipped_statements"]!.arrayValue.isEmpty
        {
            #expect(kept == expected["kept_statements"]!.arrayValue.compactMap(\.intValue))
            #expect(skipped == expected["skipped_statements"]!.arrayValue.compactMap { $0["index"]?.intValue })
        }
    }

    /// StatementService: whether it throws, which targets verify, and the predicted host state both for an app
    /// that a statement names and for one it does not.
    @Test(arguments: cases)
    func statementServiceAgrees(_ testCase: Case) {
        let expected = testCase.facts["aosp_android12"]!
        let responses = Self.responses(testCase)
        let list = StatementList(json: AndroidCorpus.bytes("assetlinks-real/files/\(testCase.file)"))
        let statements = list.statementServiceStatements
        #expect((statements == nil) == (expected["parse"]!.stringValue! == "exception"))
        let stranger = AndroidIdentity(package: "org.example.stranger", fingerprints: [Self.strangerFingerprint])
        let strangerState = StatementServiceVerifier.verdict(
            forManifestHost: Self.site.host,
            package: stranger.package,
            signedBy: stranger.fingerprints,
            responses: responses
        ).state
        guard let statements else {
            #expect(strangerState == .failure(expected["host_state"]!.intValue!))
            return
        }
        let skipped = list.entries.indices.filter { list.entries[$0].statementService == .skipped }
        #expect(skipped == (expected["skipped_statements"]?.arrayValue ?? []).compactMap { $0["index"]?.intValue })
        let targets = Self.targets(statements, deviceFingerprintsOnly: true)
        #expect(targets == Self.expectedTargets(expected))
        #expect(strangerState == .failure(expected["host_state_otherwise"]!.intValue!))
        for target in targets {
            let state = StatementServiceVerifier.verdict(
                forManifestHost: Self.site.host,
                package: target.package,
                signedBy: [target.fingerprint],
                responses: responses
            ).state
            #expect(state == .verified)
            #expect(expected["host_state_if_app_matches"]?.intValue == 1)
        }
    }

    static let site = WebSite(scheme: "https", host: "corpus.example")
    static let strangerFingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    /// The file as the body of a 200 `application/json` response, as the corpus README says to treat it.
    static func responses(_ testCase: Case) -> [String: FetchResult] {
        let body = AndroidCorpus.bytes("assetlinks-real/files/\(testCase.file)")
        return [site.statementListURL: .response(HostResponse(status: 200, contentType: "application/json", body: body))]
    }

    struct Target: Hashable {
        let package: String
        let fingerprint: String
    }

    /// (package, fingerprint) pairs of handle_all_urls android_app statements; for StatementService only the
    /// fingerprints a device can produce (upper-case, well formed) and packages an app can have.
    static func targets(_ statements: [AssetStatement], deviceFingerprintsOnly: Bool) -> Set<Target> {
        var pairs: Set<Target> = []
        for statement in statements where statement.relations.contains(RelationString.handleAllURLs) {
            guard case .androidApp(let package, let fingerprints) = statement.target else { continue }
            if deviceFingerprintsOnly && !AndroidPackageName.isValid(package) { continue }
            for fingerprint in fingerprints where !deviceFingerprintsOnly || CertificateFingerprint.problem(fingerprint) == nil {
                pairs.insert(Target(package: package, fingerprint: fingerprint))
            }
        }
        return pairs
    }

    static func expectedTargets(_ prediction: JSONValue) -> Set<Target> {
        var pairs: Set<Target> = []
        for target in prediction["verifying_targets"]?.arrayValue ?? [] {
            for fingerprint in target["sha256_cert_fingerprints"]!.arrayValue {
                pairs.insert(Target(package: target["package_name"]!.stringValue!, fingerprint: fingerprint.stringValue!))
            }
        }
        return pairs
    }
}
