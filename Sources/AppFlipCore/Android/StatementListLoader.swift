/// Walks a statement list once, deciding for every entry what Google's verifier and StatementService do
/// with it and reporting each problem with its JSON pointer, line and column. See `StatementList`.
struct StatementListLoader {
    private let bytes: [UInt8]
    private var offsets: [String: Int] = [:]
    private(set) var diagnostics: [AssetLinksDiagnostic] = []
    private(set) var refusal: AssetLinksDiagnostic?

    /// Keys of apple-app-site-association documents, pasted into statements by mistake.
    private static let aasaKeys: Set<String> = [
        "applinks", "webcredentials", "appclips", "paths", "details", "appID", "appIDs", "components", "apps",
    ]
    private static let statementKeys = ["include", "relation", "target", "relation_extensions"]
    private static let targetKeys = ["namespace", "package_name", "sha256_cert_fingerprints", "site"]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func load() -> [StatementList.Entry] {
        var parser = JSONParser(bytes)
        parser.recordsValueOffsets = true
        let document: JSONValue
        do {
            document = try parser.parse()
        } catch {
            let position = JSONSourcePosition(offset: error.offset, in: bytes)
            if looksLikeHTML {
                refuse(
                    .htmlInsteadOfJSON,
                    at: "",
                    position,
                    "the body is an HTML page, not JSON: the server answers this path with a web page (often a single-page app's index.html or a soft 404)"
                )
            } else {
                refuse(.invalidJSON, at: "", position, "the file is not valid JSON: \(error.description)")
            }
            return []
        }
        offsets = parser.valueOffsets
        for pointer in parser.duplicateKeyPointers {
            report(.duplicateKey, at: pointer, "this key appears more than once in its object; only the last value counts")
        }
        guard case .array(let elements) = document else {
            if case .object(let root) = document, root["applinks"] != nil || root["webcredentials"] != nil || root["appclips"] != nil {
                refuse(
                    .aasaDocument,
                    at: "",
                    position(of: ""),
                    "this is an apple-app-site-association document; assetlinks.json must be a JSON array of statements"
                )
            } else {
                refuse(.rootNotArray, at: "", position(of: ""), "the document must be a JSON array of statements, not \(document.typeName)")
            }
            return []
        }
        if elements.isEmpty {
            report(.emptyList, at: "", "the statement list is empty, so it delegates nothing to any app")
        }
        return elements.enumerated().map { index, element in
            loadEntry(element, at: JSONPointer.appending(index, to: ""))
        }
    }

    private var looksLikeHTML: Bool {
        let start = bytes.drop(while: { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) })
        return start.first == UInt8(ascii: "<")
    }

    // MARK: - Entries

    private mutating func loadEntry(_ value: JSONValue, at pointer: String) -> StatementList.Entry {
        guard case .object(let fields) = value else {
            report(.statementNotObject, at: pointer, "a statement must be a JSON object, not \(value.typeName)")
            return StatementList.Entry(pointer: pointer, statement: nil, include: nil, google: .skipped, statementService: .failsHost)
        }
        // StatementService's JsonParser accepts only objects, strings, arrays and (outside arrays) booleans.
        var statementService: StatementList.Effect = .kept
        if let refused = Self.firstValueStatementServiceRefuses(value, at: pointer) {
            report(
                .valueStatementServiceRefuses,
                at: refused.pointer,
                "\(refused.value.typeName) here makes StatementService (Android 12+ without Play services) refuse the whole file (state 1028)"
            )
            statementService = .failsHost
        }
        reportAASAKeys(fields, at: pointer)
        reportMisCasedKeys(fields, known: Self.statementKeys, at: pointer)

        if let include = fields["include"] {
            return loadInclude(include, fields: fields, at: pointer, statementService: statementService)
        }
        var google: StatementList.Effect = .kept
        let targetPointer = JSONPointer.appending("target", to: pointer)
        let relationPointer = JSONPointer.appending("relation", to: pointer)

        // StatementService skips, without failing, a statement whose target is no object or relation no array.
        var target: [String: JSONValue]?
        switch fields["target"] {
        case .object(let object)?: target = object
        case nil:
            if !hasMisCasedKey(fields, for: "target") {
                report(.missingTarget, at: pointer, "the statement has no target, so it names no app or site")
            }
            google = .skipped
        case let other?:
            report(.missingTarget, at: targetPointer, "target must be an object (an asset descriptor), not \(other.typeName)")
            google = .skipped
        }
        var relations: [String] = []
        var relationIsArray = false
        // StatementService reads relations only once it has a target object and a relation array.
        var relationFailsStatementService = false
        switch fields["relation"] {
        case .array(let values)?:
            relationIsArray = true
            if values.isEmpty {
                report(.missingRelation, at: relationPointer, "relation is empty, so the statement delegates nothing")
                google = .skipped
            }
            for (index, element) in values.enumerated() {
                let elementPointer = JSONPointer.appending(index, to: relationPointer)
                guard case .string(let relation) = element else {
                    report(.relationNotStrings, at: elementPointer, "a relation must be a string, not \(element.typeName)")
                    google = .skipped
                    relationFailsStatementService = true
                    continue
                }
                if let problem = RelationString.problem(relation) {
                    report(.malformedRelation, at: elementPointer, Self.describe(problem, relation))
                    google = .skipped
                    relationFailsStatementService = true
                }
                relations.append(relation)
            }
        case nil:
            if !hasMisCasedKey(fields, for: "relation") {
                report(.missingRelation, at: pointer, "the statement has no relation array")
            }
            google = .skipped
        case let other?:
            report(.relationNotStrings, at: relationPointer, "relation must be an array of strings, not \(other.typeName)")
            google = .skipped
        }
        guard let target, relationIsArray else {
            return StatementList.Entry(
                pointer: pointer,
                statement: nil,
                include: nil,
                google: .skipped,
                statementService: statementService == .failsHost ? .failsHost : .skipped
            )
        }
        if relationFailsStatementService { statementService = .failsHost }
        let loaded = loadTarget(target, at: targetPointer)
        if !loaded.google { google = .skipped }
        if loaded.failsStatementService { statementService = .failsHost }
        let rules = loadDynamicRules(fields["relation_extensions"], at: JSONPointer.appending("relation_extensions", to: pointer))
        if rules.failsStatementService { statementService = .failsHost }
        let statement = loaded.target.map { AssetStatement(relations: relations, target: $0, dynamicRules: rules.rules, pointer: pointer) }
        return StatementList.Entry(
            pointer: pointer,
            statement: statement,
            include: nil,
            google: statement == nil ? .skipped : google,
            statementService: statement == nil && statementService == .kept ? .skipped : statementService
        )
    }

    /// An `include` statement. StatementService takes any non-empty `include` as one and ignores the other
    /// fields; Google's verifier refuses one that also has `target` or `relation` (comptest2004) and allows
    /// unknown fields (comptest2005).
    private mutating func loadInclude(
        _ value: JSONValue,
        fields: [String: JSONValue],
        at pointer: String,
        statementService: StatementList.Effect
    ) -> StatementList.Entry {
        let includePointer = JSONPointer.appending("include", to: pointer)
        var google: StatementList.Effect = .kept
        guard case .string(let url) = value else {
            report(.invalidInclude, at: includePointer, "include must be a URL string, not \(value.typeName)")
            return StatementList.Entry(pointer: pointer, statement: nil, include: .notString, google: .skipped, statementService: statementService)
        }
        for field in ["target", "relation"] where fields[field] != nil {
            report(
                .includeWithStatementFields,
                at: JSONPointer.appending(field, to: pointer),
                "an include statement may not also carry \(field) (an invalid field for Google's verifier; StatementService ignores it)"
            )
            google = .skipped
        }
        if let raw = try? RawURL(url) {
            if !["http", "https"].contains(raw.normalizedScheme) {
                report(.invalidInclude, at: includePointer, "include is a non-HTTP URL (\(raw.scheme)); only http and https files can be included")
                google = .skipped
            } else if let port = raw.port, !(port.isEmpty || (Int(port).map { (0...65535).contains($0) } ?? false)) {
                report(.invalidInclude, at: includePointer, "include is not a valid URL: port \(port) is out of range")
                google = .skipped
            }
        } else {
            report(.invalidInclude, at: includePointer, "include is not a valid URL")
            google = .skipped
        }
        return StatementList.Entry(pointer: pointer, statement: nil, include: .url(url), google: google, statementService: statementService)
    }

    // MARK: - Targets

    private struct LoadedTarget {
        var target: AssetTarget?
        var google = true
        var failsStatementService = false
    }

    private mutating func loadTarget(_ fields: [String: JSONValue], at pointer: String) -> LoadedTarget {
        var loaded = LoadedTarget()
        reportAASAKeys(fields, at: pointer)
        reportMisCasedKeys(fields, known: Self.targetKeys, at: pointer)
        let namespace: String
        switch fields["namespace"] {
        case .string(let value)?: namespace = value
        default: namespace = ""
        }
        switch namespace {
        case "android_app":
            return loadAndroidApp(fields, at: pointer)
        case "web":
            return loadWeb(fields, at: pointer)
        default:
            let message =
                namespace.isEmpty
                ? "the target has no namespace string; it must be android_app or web"
                : "unrecognized namespace \"\(namespace)\"; it must be android_app or web"
            report(.unknownNamespace, at: fields["namespace"] == nil ? pointer : JSONPointer.appending("namespace", to: pointer), message)
            loaded.google = false
            loaded.failsStatementService = true
            return loaded
        }
    }

    private mutating func loadAndroidApp(_ fields: [String: JSONValue], at pointer: String) -> LoadedTarget {
        var loaded = LoadedTarget()
        let packagePointer = JSONPointer.appending("package_name", to: pointer)
        var packageName = ""
        switch fields["package_name"] {
        case .string(let value)? where !value.isEmpty:
            packageName = value
            if !AndroidPackageName.isValid(value) {
                report(
                    .invalidPackageName,
                    at: packagePointer,
                    "\"\(value)\" is not a valid Android package name (dot-separated segments, each starting with a letter), so no installed app can match it"
                )
                loaded.google = false
            }
        case nil:
            if !hasMisCasedKey(fields, for: "package_name") {
                report(.missingPackageName, at: pointer, "the android_app target has no package_name")
            }
            loaded.google = false
            loaded.failsStatementService = true
        case let other?:
            report(
                .missingPackageName,
                at: packagePointer,
                "package_name must be a non-empty string, not \(other.typeName == "a string" ? "an empty string" : other.typeName)"
            )
            loaded.google = false
            loaded.failsStatementService = true
        }
        let fingerprintsPointer = JSONPointer.appending("sha256_cert_fingerprints", to: pointer)
        var fingerprints: [String] = []
        switch fields["sha256_cert_fingerprints"] {
        case .array(let values)? where !values.isEmpty:
            for (index, value) in values.enumerated() {
                let elementPointer = JSONPointer.appending(index, to: fingerprintsPointer)
                guard case .string(let fingerprint) = value else {
                    report(.fingerprintNotString, at: elementPointer, "a fingerprint must be a string, not \(value.typeName)")
                    loaded.google = false
                    continue
                }
                if let problem = CertificateFingerprint.problem(fingerprint) {
                    let (code, message) = Self.describe(problem)
                    report(code, at: elementPointer, message)
                    loaded.google = false
                }
                fingerprints.append(fingerprint)
            }
        case nil:
            if !hasMisCasedKey(fields, for: "sha256_cert_fingerprints") {
                report(.missingFingerprints, at: pointer, "the android_app target has no sha256_cert_fingerprints")
            }
            loaded.google = false
            loaded.failsStatementService = true
        case let other?:
            report(
                .missingFingerprints,
                at: fingerprintsPointer,
                "sha256_cert_fingerprints must be a non-empty array of fingerprints, not \(other.typeName == "an array" ? "an empty array" : other.typeName)"
            )
            loaded.google = false
            loaded.failsStatementService = true
        }
        if !loaded.failsStatementService {
            loaded.target = .androidApp(packageName: packageName, fingerprints: fingerprints)
        }
        return loaded
    }

    private mutating func loadWeb(_ fields: [String: JSONValue], at pointer: String) -> LoadedTarget {
        var loaded = LoadedTarget()
        let sitePointer = JSONPointer.appending("site", to: pointer)
        guard case .string(let site)? = fields["site"], !site.isEmpty else {
            if fields["site"] != nil || !hasMisCasedKey(fields, for: "site") {
                report(.missingSite, at: fields["site"] == nil ? pointer : sitePointer, "the web target has no site string")
            }
            loaded.google = false
            loaded.failsStatementService = true
            return loaded
        }
        do {
            _ = try WebSite.parse(site)
        } catch {
            let (code, message) = Self.describe(error, site)
            report(code, at: sitePointer, message)
            loaded.google = false
        }
        do {
            _ = try WebSite.parseAsStatementService(site)
            loaded.target = .web(site: site)
        } catch {
            loaded.failsStatementService = true
        }
        return loaded
    }

    // MARK: - Dynamic rules

    /// Android 15's `relation_extensions`. StatementService reads only `dynamic_app_link_components` under the
    /// `handle_all_urls` key (`optJSONObject`/`optJSONArray`: other types are as if absent) and throws when a
    /// component is not an object (`getJSONObject`).
    private mutating func loadDynamicRules(_ value: JSONValue?, at pointer: String) -> (rules: [DynamicAppLinkRule], failsStatementService: Bool) {
        guard case .object(let extensions)? = value,
            case .object(let handleAll)? = extensions[RelationString.handleAllURLs],
            case .array(let components)? = handleAll["dynamic_app_link_components"]
        else { return ([], false) }
        let componentsPointer = JSONPointer.appending(
            "dynamic_app_link_components",
            to: JSONPointer.appending(RelationString.handleAllURLs, to: pointer)
        )
        var rules: [DynamicAppLinkRule] = []
        var fails = false
        for (index, component) in components.enumerated() {
            let componentPointer = JSONPointer.appending(index, to: componentsPointer)
            guard case .object(let parts) = component else {
                report(
                    .invalidDynamicComponent,
                    at: componentPointer,
                    "a dynamic component must be an object, not \(component.typeName); StatementService refuses the file"
                )
                fails = true
                continue
            }
            var strings: [String: String] = [:]
            for key in ["/", "#", "comments"] {
                guard let part = parts[key] else { continue }
                if case .string(let text) = part {
                    strings[key] = text
                    if text.isEmpty && key != "comments" {
                        report(
                            .invalidDynamicComponent,
                            at: JSONPointer.appending(key, to: componentPointer),
                            "an empty expression is refused by the component parser, so this rule never matches"
                        )
                    }
                } else {
                    report(
                        .invalidDynamicComponent,
                        at: JSONPointer.appending(key, to: componentPointer),
                        "\(key) must be a string, not \(part.typeName)"
                    )
                }
            }
            var query: [String: String]?
            if let queryValue = parts["?"] {
                if case .object(let members) = queryValue {
                    var map: [String: String] = [:]
                    for (name, expression) in members {
                        if case .string(let text) = expression {
                            map[name] = text
                        } else {
                            report(
                                .invalidDynamicComponent,
                                at: JSONPointer.appending(name, to: JSONPointer.appending("?", to: componentPointer)),
                                "a query value must be a string, not \(expression.typeName)"
                            )
                        }
                    }
                    query = map
                } else {
                    report(
                        .invalidDynamicComponent,
                        at: JSONPointer.appending("?", to: componentPointer),
                        "? must be an object of parameter names to expressions, not \(queryValue.typeName)"
                    )
                }
            }
            var exclude = false
            switch parts["exclude"] {
            case .bool(let flag)?: exclude = flag
            case .string(let text)? where text.lowercased() == "true" || text.lowercased() == "false": exclude = text.lowercased() == "true"
            case nil: break
            case let other?:
                report(
                    .invalidDynamicComponent,
                    at: JSONPointer.appending("exclude", to: componentPointer),
                    "exclude must be a boolean, not \(other.typeName); it is read as false"
                )
            }
            rules.append(
                DynamicAppLinkRule(
                    exclude: exclude,
                    path: strings["/"],
                    query: query,
                    fragment: strings["#"],
                    comments: strings["comments"],
                    pointer: componentPointer
                )
            )
        }
        return (rules, fails)
    }

    // MARK: - Named mistakes

    private mutating func reportAASAKeys(_ fields: [String: JSONValue], at pointer: String) {
        for key in fields.keys.sorted() where Self.aasaKeys.contains(key) {
            report(
                .aasaKey,
                at: JSONPointer.appending(key, to: pointer),
                "\"\(key)\" is an apple-app-site-association key; Digital Asset Links ignores it (Android App Links take paths from the app's intent filters)"
            )
        }
    }

    private mutating func reportMisCasedKeys(_ fields: [String: JSONValue], known: [String], at pointer: String) {
        for key in fields.keys.sorted() where !known.contains(key) {
            if let meant = known.first(where: { $0 == key.lowercased() }), fields[meant] == nil {
                report(
                    .misCasedKey,
                    at: JSONPointer.appending(key, to: pointer),
                    "\"\(key)\" should be \"\(meant)\": keys are case-sensitive, so the verifiers do not see this one"
                )
            }
        }
    }

    private func hasMisCasedKey(_ fields: [String: JSONValue], for key: String) -> Bool {
        fields.keys.contains { $0 != key && $0.lowercased() == key }
    }

    /// The first value StatementService's `JsonParser` throws on: a number or null anywhere, a boolean in an array.
    private static func firstValueStatementServiceRefuses(_ value: JSONValue, at pointer: String, inArray: Bool = false) -> Located<JSONValue>? {
        switch value {
        case .number, .null: return Located(value: value, pointer: pointer)
        case .bool: return inArray ? Located(value: value, pointer: pointer) : nil
        case .string: return nil
        case .array(let values):
            for (index, element) in values.enumerated() {
                if let found = firstValueStatementServiceRefuses(element, at: JSONPointer.appending(index, to: pointer), inArray: true) {
                    return found
                }
            }
            return nil
        case .object(let members):
            for key in members.keys.sorted() {
                if let found = firstValueStatementServiceRefuses(members[key]!, at: JSONPointer.appending(key, to: pointer)) { return found }
            }
            return nil
        }
    }

    private static func describe(_ problem: RelationString.Problem, _ relation: String) -> String {
        switch problem {
        case .noSeparator: "invalid relation string \"\(relation)\": it must be kind/detail, with exactly one /"
        case .invalidKind: "invalid 'kind' field in relation string \"\(relation)\": it must match [a-z0-9_.]+"
        case .invalidDetail: "invalid 'detail' field in relation string \"\(relation)\": it must match [a-z0-9_.]+"
        }
    }

    private static func describe(_ problem: CertificateFingerprint.Problem) -> (AssetLinksDiagnostic.Code, String) {
        switch problem {
        case .empty: (.malformedFingerprint, "the fingerprint is empty")
        case .lowercase:
            (
                .lowercaseFingerprint,
                "the fingerprint is lower-case hex; it must be upper case, as keytool prints it, or it never matches the device's"
            )
        case .sha1Length: (.sha1Fingerprint, "the fingerprint is 20 bytes: this is the SHA-1 fingerprint; App Links need the SHA-256 one (32 bytes)")
        case .trailingCharacter(let character): (.fingerprintTrailingCharacter, "the fingerprint has a trailing \"\(character)\" after its 32 bytes")
        case .label: (.fingerprintLabel, "the fingerprint starts with keytool's \"SHA256:\" label; only the hex pairs belong here")
        case .wrongLength(let count): (.fingerprintWrongLength, "the fingerprint is \(count) bytes; a SHA-256 fingerprint is 32")
        case .noColons: (.malformedFingerprint, "the fingerprint has no colons; it must be 32 hex pairs separated by colons")
        case .placeholder:
            (.placeholderFingerprint, "the fingerprint is not hex: a placeholder or a command line was left in place of the real value")
        }
    }

    private static func describe(_ problem: WebSite.Problem, _ site: String) -> (AssetLinksDiagnostic.Code, String) {
        switch problem {
        case .notURL: (.invalidSite, "invalid site \"\(site)\": it is not a URL with a scheme and a host")
        case .notHTTP: (.siteNotHTTP, "site \"\(site)\" is not http or https")
        case .userInfo: (.siteWithUserInfo, "site \"\(site)\" contains login information (user info)")
        case .path:
            (
                .siteWithPath,
                "site \"\(site)\" cannot contain a path, not even \"/\" (Google's verifier drops the statement; StatementService accepts only \"/\")"
            )
        case .queryOrFragment: (.siteWithQueryOrFragment, "site \"\(site)\" cannot contain query parameters or fragment identifiers")
        case .invalidPort: (.invalidSite, "invalid site \"\(site)\": the port is not a number from 1 to 65535")
        }
    }

    // MARK: - Reporting

    private func position(of pointer: String) -> JSONSourcePosition? {
        offsets[pointer].map { JSONSourcePosition(offset: $0, in: bytes) }
    }

    private mutating func report(_ code: AssetLinksDiagnostic.Code, at pointer: String, _ message: String) {
        diagnostics.append(AssetLinksDiagnostic(code, at: pointer, position: position(of: pointer), message))
    }

    private mutating func refuse(_ code: AssetLinksDiagnostic.Code, at pointer: String, _ position: JSONSourcePosition?, _ message: String) {
        let diagnostic = AssetLinksDiagnostic(code, at: pointer, position: position, message)
        diagnostics.append(diagnostic)
        refusal = diagnostic
    }
}
