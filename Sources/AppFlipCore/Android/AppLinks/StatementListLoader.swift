/// Walks a statement list once, deciding for every entry what Google's verifier and StatementService do
/// with it and reporting each problem with its JSON pointer, line and column. See `StatementList`.
struct StatementListLoader {
    let bytes: [UInt8]
    private(set) var offsets: [String: Int] = [:]
    private(set) var diagnostics: [AssetLinksDiagnostic] = []
    private(set) var refusal: AssetLinksDiagnostic?

    /// Keys of apple-app-site-association documents, pasted into statements by mistake.
    static let aasaKeys: Set<String> = [
        "applinks", "webcredentials", "appclips", "paths", "details", "appID", "appIDs", "components", "apps",
    ]
    static let statementKeys = ["include", "relation", "target", "relation_extensions"]
    static let targetKeys = ["namespace", "package_name", "sha256_cert_fingerprints", "site"]

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
        // StatementService skips, without failing, a statement whose target is no object or relation no array.
        let target = targetObject(fields, at: pointer)
        let relations = loadRelations(fields, at: pointer)
        guard let target, let strings = relations.strings else {
            return StatementList.Entry(
                pointer: pointer,
                statement: nil,
                include: nil,
                google: .skipped,
                statementService: statementService == .failsHost ? .failsHost : .skipped
            )
        }
        var google: StatementList.Effect = relations.google
        if relations.failsStatementService { statementService = .failsHost }
        let loaded = loadTarget(target, at: JSONPointer.appending("target", to: pointer))
        if !loaded.google { google = .skipped }
        if loaded.failsStatementService { statementService = .failsHost }
        let rules = loadDynamicRules(fields["relation_extensions"], at: JSONPointer.appending("relation_extensions", to: pointer))
        if rules.failsStatementService { statementService = .failsHost }
        let statement = loaded.target.map { AssetStatement(relations: strings, target: $0, dynamicRules: rules.rules, pointer: pointer) }
        return StatementList.Entry(
            pointer: pointer,
            statement: statement,
            include: nil,
            google: statement == nil ? .skipped : google,
            statementService: statement == nil && statementService == .kept ? .skipped : statementService
        )
    }

    /// The statement's `target` object; nil, reported, when it is missing or not an object.
    private mutating func targetObject(_ fields: [String: JSONValue], at pointer: String) -> [String: JSONValue]? {
        switch fields["target"] {
        case .object(let object)?:
            return object
        case nil:
            if !hasMisCasedKey(fields, for: "target") {
                report(.missingTarget, at: pointer, "the statement has no target, so it names no app or site")
            }
        case let other?:
            report(
                .missingTarget,
                at: JSONPointer.appending("target", to: pointer),
                "target must be an object (an asset descriptor), not \(other.typeName)"
            )
        }
        return nil
    }

    /// A statement's `relation` array as read: what the verifiers make of it.
    private struct Relations {
        /// The strings, malformed ones included; nil when `relation` is missing or not an array.
        var strings: [String]?
        /// `.skipped` when Google's verifier skips the statement for its relations (empty, a non-string, a
        /// malformed one).
        var google: StatementList.Effect = .kept
        /// A non-string or malformed relation, which StatementService reads once it has a target object and
        /// a relation array, and then refuses the file.
        var failsStatementService = false
    }

    /// The statement's `relation` array, each problem reported.
    private mutating func loadRelations(_ fields: [String: JSONValue], at pointer: String) -> Relations {
        let relationPointer = JSONPointer.appending("relation", to: pointer)
        var relations = Relations()
        switch fields["relation"] {
        case .array(let values)?:
            relations.strings = []
            if values.isEmpty {
                report(.missingRelation, at: relationPointer, "relation is empty, so the statement delegates nothing")
                relations.google = .skipped
            }
            for (index, element) in values.enumerated() {
                let elementPointer = JSONPointer.appending(index, to: relationPointer)
                guard case .string(let relation) = element else {
                    report(.relationNotStrings, at: elementPointer, "a relation must be a string, not \(element.typeName)")
                    relations.google = .skipped
                    relations.failsStatementService = true
                    continue
                }
                if let problem = RelationString.problem(relation) {
                    report(.malformedRelation, at: elementPointer, Self.describe(problem, relation))
                    relations.google = .skipped
                    relations.failsStatementService = true
                }
                relations.strings?.append(relation)
            }
        case nil:
            if !hasMisCasedKey(fields, for: "relation") {
                report(.missingRelation, at: pointer, "the statement has no relation array")
            }
        case let other?:
            report(.relationNotStrings, at: relationPointer, "relation must be an array of strings, not \(other.typeName)")
        }
        return relations
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

    // MARK: - Reporting

    func position(of pointer: String) -> JSONSourcePosition? {
        offsets[pointer].map { JSONSourcePosition(offset: $0, in: bytes) }
    }

    mutating func report(_ code: AssetLinksDiagnostic.Code, at pointer: String, _ message: String) {
        diagnostics.append(AssetLinksDiagnostic(code, at: pointer, position: position(of: pointer), message))
    }

    private mutating func refuse(_ code: AssetLinksDiagnostic.Code, at pointer: String, _ position: JSONSourcePosition?, _ message: String) {
        let diagnostic = AssetLinksDiagnostic(code, at: pointer, position: position, message)
        diagnostics.append(diagnostic)
        refusal = diagnostic
    }
}
