import AppFlipCore

/// Runs one case of Google's Digital Asset Links compatibility suite (`Corpora/dal-compat/cases.jsonl`)
/// through the Google-verifier mode: the request is validated with the core's own rules (relation,
/// fingerprint, package name, site), the source's statement list is read with `GoogleVerifier` from the
/// group's `web_content` (each served 200 `application/json`), and Check or List is answered from the
/// statements it kept.
struct DALCompatibilityRunner {
    /// What the runner answered, in the suite's terms.
    struct Answer: Equatable {
        var outcome: String
        var check: Bool?
        var list: Set<Listed>?
        var errors: [String] = []
    }

    /// One statement of a List answer: relation and target, the source being the request's.
    struct Listed: Hashable {
        let relation: String
        let target: String
    }

    private struct QueryError: Error {}

    let testCase: JSONValue

    func run() -> Answer {
        let request = testCase["request"]!
        let isCheck = testCase["api"]!.stringValue! == "check"
        guard let source = request["source"], (try? validate(asset: source)) != nil else { return Answer(outcome: "QUERY_PARSING_ERROR") }
        var relation = request["relation"]?.stringValue
        if relation == "" { relation = nil }
        if let relation, RelationString.problem(relation) != nil { return Answer(outcome: "QUERY_PARSING_ERROR") }
        if isCheck && relation == nil { return Answer(outcome: "QUERY_PARSING_ERROR") }
        var target: String?
        if isCheck {
            guard let asset = request["target"], let key = try? validate(asset: asset) else { return Answer(outcome: "QUERY_PARSING_ERROR") }
            target = key
        }

        let verification = read(source: source)
        var answer = Answer(outcome: verification.outcome ?? "not judged", errors: verification.errors.map(\.rawValue))
        // Every MALFORMED_CONTENT is named beside a diagnostic of a list read, as `assetlinks check` prints it.
        let beside = Set(verification.documents.flatMap { document in document.list.diagnostics.compactMap(document.list.apiErrorCode(of:)) })
        if beside != Set(verification.errors).intersection([.malformedContent]) { answer.errors.append("beside diagnostics: \(beside)") }
        let listed = Set(verification.statements.flatMap(Self.listed))
        if isCheck {
            answer.check = listed.contains(Listed(relation: relation!, target: target!))
        } else {
            answer.list = listed.filter { relation == nil || $0.relation == relation }
        }
        return answer
    }

    /// The statements the source makes: a website's from its hosted file, an app's from its APK's list.
    private func read(source: JSONValue) -> GoogleVerifier.Verification {
        var responses: [String: FetchResult] = [:]
        for content in testCase["web_content"]!.arrayValue {
            let url = content["url"]!.stringValue!
            let served = FetchResult.response(
                HostResponse(status: 200, contentType: "application/json", body: Array(content["body"]!.stringValue!.utf8))
            )
            responses[url] = served
            // The same file under its canonical address (`https://host:443/…` is `https://host/…`).
            if let raw = try? RawURL(url), raw.path == "/.well-known/assetlinks.json" {
                responses[WebSite(scheme: raw.scheme, host: raw.host, port: raw.port.flatMap { Int($0) }).statementListURL] = served
            }
        }
        if let site = source["web"]?["site"]?.stringValue {
            return GoogleVerifier.verify(site: try! WebSite.parse(site), responses: responses)
        }
        let app = source["android_app"]!
        let package = app["package_name"]!.stringValue!
        let fingerprint = app["certificate"]!["sha256_fingerprint"]!.stringValue!
        let apk = testCase["android_content"]!.arrayValue.first {
            $0["package_name"]?.stringValue == package && $0["cert_fingerprint"]?.stringValue == fingerprint
        }
        // An APK's statements are signed with it: a secure source. An app that is not installed makes none.
        let address = "android-app://\(package)/assets_statements"
        responses[address] = .response(
            HostResponse(status: 200, contentType: "application/json", body: Array((apk?["assets_statements"]?.stringValue ?? "[]").utf8))
        )
        return GoogleVerifier.verify(statementListAt: address, secure: true, responses: responses)
    }

    /// A request's asset as the comparison key `listed` produces, or a query parsing error.
    private func validate(asset: JSONValue) throws(QueryError) -> String {
        if let web = asset["web"] {
            guard let site = web["site"]?.stringValue, let parsed = try? WebSite.parse(site) else { throw QueryError() }
            return Self.key(parsed)
        }
        if let app = asset["android_app"] {
            guard let package = app["package_name"]?.stringValue, !package.isEmpty, package.trimmingCharacters(in: " ") == package,
                let fingerprint = app["certificate"]?["sha256_fingerprint"]?.stringValue, CertificateFingerprint.problem(fingerprint) == nil
            else { throw QueryError() }
            return "android_app \(package) \(fingerprint)"
        }
        throw QueryError()
    }

    /// A statement as List answers it: one entry per relation and, for an app, per certificate.
    private static func listed(_ statement: AssetStatement) -> [Listed] {
        let targets: [String]
        switch statement.target {
        case .web(let site): targets = (try? WebSite.parse(site)).map { [key($0)] } ?? []
        case .androidApp(let package, let fingerprints): targets = fingerprints.map { "android_app \(package) \($0)" }
        }
        return statement.relations.flatMap { relation in targets.map { Listed(relation: relation, target: $0) } }
    }

    /// Google writes hosts as fully qualified names with the trailing dot (`https://a.example.`): the same site.
    static func key(_ site: WebSite) -> String {
        let host = site.host.hasSuffix(".") ? String(site.host.dropLast()) : site.host
        return "web \(site.scheme)://\(host):\(site.port)"
    }

    /// The expected answer, in the same terms.
    static func expected(_ testCase: JSONValue) -> Answer {
        let expected = testCase["expected"]!
        var answer = Answer(outcome: expected["outcome"]!.stringValue!, errors: expected["error_code"]?.arrayValue.compactMap(\.stringValue) ?? [])
        if testCase["api"]!.stringValue! == "check" {
            answer.check = expected["response"]?.boolValue ?? false
        } else {
            answer.list = Set(
                (expected["response"]?.arrayValue ?? []).map { statement in
                    let target = statement["target"]!
                    let key: String
                    if let site = target["web"]?["site"]?.stringValue {
                        key = Self.key(try! WebSite.parse(site))
                    } else {
                        let app = target["android_app"]!
                        key = "android_app \(app["package_name"]!.stringValue!) \(app["certificate"]!["sha256_fingerprint"]!.stringValue!)"
                    }
                    return Listed(relation: statement["relation"]!.stringValue!, target: key)
                }
            )
        }
        return answer
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop(while: { $0 == set }).reversed().drop(while: { $0 == set }).reversed())
    }
}
