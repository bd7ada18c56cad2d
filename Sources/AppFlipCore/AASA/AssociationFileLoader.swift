/// Walks a parsed document once: checks every value's type, reports every problem with a JSON pointer, and
/// compiles the `applinks` rules. It keeps going after an error so that a user sees all of them at once;
/// whether the result may be used is the caller's decision (`AssociationFile` refuses any error).
///
/// Like `swcutil`, it skips what iOS skips instead of refusing the file: a details entry that names no app
/// or has a value of the wrong type (AASA110, AASA112), and a component or `defaults` object with a value of
/// the wrong type (AASA152). Each is a warning naming the value at fault; every other entry keeps working.
struct AssociationFileLoader {
    /// Apple's CDN refuses files above 128 KB; a file that large cannot work on a device either.
    static let maximumSize = 128 * 1024

    private(set) var diagnostics: [AASADiagnostic] = []
    private var reported: Set<ReportKey> = []
    /// The part being loaded that a wrong type skips instead of refusing the file; nil at the document level.
    private var skippable: SkippablePart?

    /// A details entry, component or `defaults` object: iOS ignores one it cannot read, and so does the loader.
    private struct SkippablePart {
        let code: AASADiagnostic.Code
        /// What the warning says is skipped, e.g. "the details entry /applinks/details/2".
        let name: String
        var skipped = false
    }

    private struct ReportKey: Hashable {
        let code: AASADiagnostic.Code
        let pointer: String
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Loads UTF-8 JSON text.
    mutating func load(json: some Collection<UInt8>) -> [CompiledDetail] {
        guard json.count <= Self.maximumSize else {
            report(.documentTooLarge, at: "", "the file is \(json.count) bytes; Apple accepts at most \(Self.maximumSize)")
            return []
        }
        var parser = JSONParser(Array(json))
        let document: JSONValue
        do {
            document = try parser.parse()
        } catch {
            report(.invalidJSON, at: "", "the file is not valid JSON: \(error.description)")
            return []
        }
        for pointer in parser.duplicateKeyPointers {
            report(.duplicateKey, at: pointer, "this key appears more than once in its object; only the last value counts")
        }
        return load(document: document)
    }

    mutating func load(document: JSONValue) -> [CompiledDetail] {
        guard case .object(let root) = document else {
            report(.rootNotObject, at: "", "the document must be a JSON object, not \(document.typeName)")
            return []
        }
        let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
        if !services.contains(where: { root[$0] != nil }) {
            report(
                .noRecognizedService,
                at: "",
                "the document has none of applinks, webcredentials, appclips or activitycontinuation, so it grants no app anything"
            )
        }
        guard let applinksValue = root["applinks"] else { return [] }
        guard let applinks = object(applinksValue, at: "/applinks", expected: "an object") else { return [] }

        if let apps = applinks["apps"], let list = array(apps, at: "/applinks/apps", expected: "an empty array"), !list.isEmpty {
            report(
                .legacyAppsNotEmpty,
                at: "/applinks/apps",
                "the legacy apps array must be empty (Apple requires []); app identifiers belong in details"
            )
        }

        let variables = loadVariables(applinks["substitutionVariables"], at: "/applinks/substitutionVariables")
        var compiler = PatternCompiler(variables: variables)
        let documentDefaults = applinks["defaults"].flatMap { defaultsLayer($0, at: "/applinks/defaults") } ?? RuleLayer()

        var details: [CompiledDetail] = []
        switch applinks["details"] {
        case nil:
            reportLater(.noDetails, at: "/applinks", "applinks has no details, so no app can open universal links on this domain")
        case .array(let entries)?:
            if entries.isEmpty {
                reportLater(.noDetails, at: "/applinks/details", "details is empty, so no app can open universal links on this domain")
            }
            for (index, entry) in entries.enumerated() {
                let pointer = JSONPointer.appending(index, to: "/applinks/details")
                if let detail = loadDetail(entry, at: pointer, dictionaryKey: nil, defaults: documentDefaults, compiler: &compiler) {
                    details.append(detail)
                }
            }
        case .object(let entries)?:
            // The oldest form, keyed by app id. JSON objects have no order, so the keys are evaluated sorted.
            if entries.isEmpty {
                reportLater(.noDetails, at: "/applinks/details", "details is empty, so no app can open universal links on this domain")
            }
            for key in entries.keys.sorted() {
                let pointer = JSONPointer.appending(key, to: "/applinks/details")
                if let detail = loadDetail(entries[key]!, at: pointer, dictionaryKey: key, defaults: documentDefaults, compiler: &compiler) {
                    details.append(detail)
                }
            }
        case let other?:
            wrongType(other, at: "/applinks/details", expected: "an array (or the legacy object keyed by app id)")
        }

        // What a document does is only worth warning about once it can be loaded at all.
        if !hasErrors {
            diagnostics += pendingWarnings
            reportShadowedRules(in: details)
        }
        return details
    }

    private var pendingWarnings: [AASADiagnostic] = []

    private mutating func reportLater(_ code: AASADiagnostic.Code, at pointer: String, _ message: String) {
        pendingWarnings.append(AASADiagnostic(code, at: pointer, message))
    }

    // MARK: - Details

    /// One details entry, or nil when it is skipped: it names no app, or one of its own values has the wrong
    /// type (a component's problems skip only that component).
    private mutating func loadDetail(
        _ value: JSONValue,
        at pointer: String,
        dictionaryKey: String?,
        defaults documentDefaults: RuleLayer,
        compiler: inout PatternCompiler
    ) -> CompiledDetail? {
        let outer = skippable
        skippable = SkippablePart(code: .skippedDetail, name: "the details entry \(pointer)")
        defer { skippable = outer }
        let detail = loadDetailValues(value, at: pointer, dictionaryKey: dictionaryKey, defaults: documentDefaults, compiler: &compiler)
        return skippable?.skipped == true ? nil : detail
    }

    private mutating func loadDetailValues(
        _ value: JSONValue,
        at pointer: String,
        dictionaryKey: String?,
        defaults documentDefaults: RuleLayer,
        compiler: inout PatternCompiler
    ) -> CompiledDetail? {
        guard let entry = object(value, at: pointer, expected: "an object") else { return nil }
        guard let appIDs = loadAppIDs(entry, at: pointer, dictionaryKey: dictionaryKey) else { return nil }
        let detailDefaults = entry["defaults"].flatMap { defaultsLayer($0, at: pointer + "/defaults") } ?? RuleLayer()
        let defaults = detailDefaults.overriding(documentDefaults)
        let rules: [CompiledRule]
        if let components = entry["components"] {
            if entry["paths"] != nil {
                report(
                    .componentsAndPaths,
                    at: pointer + "/paths",
                    "this entry has both components and legacy paths; components are used and paths ignored"
                )
            }
            rules = compileRules(of: components, legacy: false, at: pointer + "/components", defaults: defaults, compiler: &compiler)
        } else if let paths = entry["paths"] {
            rules = compileRules(of: paths, legacy: true, at: pointer + "/paths", defaults: defaults, compiler: &compiler)
        } else {
            rules = []
        }
        return CompiledDetail(appIDs: appIDs, rules: rules)
    }

    /// The entry's app identifiers: its key in the legacy object form, else `appIDs`, else `appID`; nil,
    /// reported, when it names no app.
    private mutating func loadAppIDs(_ entry: [String: JSONValue], at pointer: String, dictionaryKey: String?) -> [String]? {
        if let key = dictionaryKey {
            if key.isEmpty { report(.emptyAppID, at: pointer, "the app identifier (this entry's key) is empty") }
            return [key]
        }
        if let list = entry["appIDs"] {
            // `appIDs` wins over `appID`, even when it is empty.
            if entry["appID"] != nil {
                report(.bothAppIDForms, at: pointer + "/appID", "both appID and appIDs are set; appIDs is used and appID ignored")
            }
            var appIDs: [String] = []
            if let items = array(list, at: pointer + "/appIDs", expected: "an array of app identifiers") {
                for (index, item) in items.enumerated() {
                    let itemPointer = JSONPointer.appending(index, to: pointer + "/appIDs")
                    if let id = string(item, at: itemPointer, expected: "an app identifier string") {
                        if id.isEmpty { report(.emptyAppID, at: itemPointer, "the app identifier is empty") }
                        appIDs.append(id)
                    }
                }
            }
            return appIDs
        }
        if let single = entry["appID"] {
            guard let id = string(single, at: pointer + "/appID", expected: "an app identifier string") else { return [] }
            if id.isEmpty { report(.emptyAppID, at: pointer + "/appID", "the app identifier is empty") }
            return [id]
        }
        // swcutil accepts the file and the entry matches nothing (st-tech/universal-links-test's case).
        report(
            .detailWithoutAppID,
            at: pointer,
            "this entry names no app, so iOS skips it and it matches nothing: add appIDs (e.g. [\"ABCDE12345.com.example.app\"])"
        )
        return nil
    }

    /// The rules of `components` (component objects) or of legacy `paths` (path strings), each over the
    /// entry's defaults; an item of the wrong type is skipped.
    private mutating func compileRules(
        of items: JSONValue,
        legacy: Bool,
        at pointer: String,
        defaults: RuleLayer,
        compiler: inout PatternCompiler
    ) -> [CompiledRule] {
        let expected = legacy ? "an array of path strings" : "an array of component objects"
        guard let list = array(items, at: pointer, expected: expected) else { return [] }
        var rules: [CompiledRule] = []
        for (index, item) in list.enumerated() {
            let itemPointer = JSONPointer.appending(index, to: pointer)
            let read = legacy ? legacyPathLayer(item, at: itemPointer) : componentLayer(item, at: itemPointer)
            guard let (own, text) = read else { continue }
            if let rule = compileRule(own.overriding(defaults), text: text, pointer: itemPointer, compiler: &compiler) {
                rules.append(rule)
            }
        }
        return rules
    }

    /// A component's own layer and its text; nil, skipped, when one of its values has the wrong type.
    private mutating func componentLayer(_ component: JSONValue, at pointer: String) -> (RuleLayer, String)? {
        skippableLayer(component, at: pointer, name: "the component \(pointer)").map { ($0, component.compactJSON) }
    }

    /// A legacy path's layer and its text: a component that sets only `/`, `NOT ` making it an exclusion;
    /// nil when it is not a string.
    private mutating func legacyPathLayer(_ item: JSONValue, at pointer: String) -> (RuleLayer, String)? {
        guard let text = string(item, at: pointer, expected: "a path string") else { return nil }
        var own = RuleLayer()
        if text.hasPrefix("NOT ") {
            own.path = Located(value: String(text.dropFirst(4)), pointer: pointer)
            own.exclude = true
        } else {
            own.path = Located(value: text, pointer: pointer)
        }
        return (own, text)
    }

    // MARK: - Rules

    /// One rule: its path, query and fragment patterns compiled in the rule's text form; nil, each failure
    /// reported, when any of them does not compile.
    private mutating func compileRule(
        _ layer: RuleLayer,
        text: String,
        pointer: String,
        compiler: inout PatternCompiler
    ) -> CompiledRule? {
        let form = TextForm(percentEncoded: layer.percentEncoded ?? true, caseSensitive: layer.caseSensitive ?? true)
        var failed = false
        var path: CompiledRule.PathTest?
        if let located = layer.path {
            let (main, parent) = Self.pathPatterns(located.value)
            if let pattern = compile(main, as: located.value, at: located.pointer, form: form, compiler: &compiler) {
                path = CompiledRule.PathTest(
                    pattern: pattern,
                    parent: parent.flatMap { compile($0, as: located.value, at: located.pointer, form: form, compiler: &compiler) }
                )
            } else {
                failed = true
            }
        }
        let query = layer.query.flatMap { queryTest($0, form: form, compiler: &compiler, failed: &failed) }
        var fragment: Pattern?
        if let located = layer.fragment {
            fragment = compile(located.value, at: located.pointer, form: form, compiler: &compiler)
            if fragment == nil { failed = true }
        }
        guard !failed else { return nil }
        return CompiledRule(
            path: path,
            query: query,
            fragment: fragment,
            excludes: layer.exclude ?? false,
            form: form,
            text: text,
            pointer: pointer,
            writtenPath: layer.path?.value
        )
    }

    /// A rule's `?`: one pattern for the whole query string, or one per item name; nil when there is none to
    /// test, and `failed` set when a pattern does not compile.
    private mutating func queryTest(
        _ located: Located<JSONValue>,
        form: TextForm,
        compiler: inout PatternCompiler,
        failed: inout Bool
    ) -> CompiledRule.QueryTest? {
        switch located.value {
        case .string(let text):
            guard let pattern = compile(text, at: located.pointer, form: form, compiler: &compiler) else {
                failed = true
                return nil
            }
            return .whole(pattern)
        case .object(let members):
            let nonStrings = members.filter { if case .string = $0.value { false } else { true } }
            guard nonStrings.isEmpty else {
                // swcutil ignores the whole dictionary then, every other item's constraint included.
                for name in nonStrings.keys.sorted() {
                    report(
                        .nonStringQueryPredicate,
                        at: JSONPointer.appending(name, to: located.pointer),
                        "the pattern for query item \"\(name)\" is \(nonStrings[name]!.typeName), not a string; Apple then ignores the whole ? dictionary, so every query matches this rule"
                    )
                }
                return nil
            }
            var tests: [CompiledRule.QueryItemTest] = []
            for name in members.keys.sorted() {
                guard case .string(let text) = members[name]! else { continue }
                guard let pattern = compile(text, at: JSONPointer.appending(name, to: located.pointer), form: form, compiler: &compiler) else {
                    failed = true
                    continue
                }
                let nameBytes = Array(name.utf8)
                tests.append(
                    CompiledRule.QueryItemTest(
                        name: form.foldsCase ? TextTransform.caseFolded(nameBytes) : nameBytes,
                        pattern: pattern,
                        matchesAbsentItem: pattern.matches([])
                    )
                )
            }
            return .items(tests)
        default:
            return nil  // refused by `layer(_:at:)`
        }
    }

    /// Compiles `text`, reporting failures against `written`, the pattern as the user wrote it.
    private mutating func compile(
        _ text: String,
        as written: String? = nil,
        at pointer: String,
        form: TextForm,
        compiler: inout PatternCompiler
    ) -> Pattern? {
        let written = written ?? text
        do {
            return try compiler.compile(text, foldingCase: form.foldsCase)
        } catch {
            switch error {
            case .unterminatedSubstitution:
                report(.unterminatedSubstitution, at: pointer, "the pattern \"\(written)\" opens $( without a closing )")
            case .undefinedVariable(let name):
                report(
                    .undefinedVariable,
                    at: pointer,
                    "the pattern \"\(written)\" uses $(\(name)), which is neither in substitutionVariables nor predefined"
                )
            }
            return nil
        }
    }

    /// Path patterns compare without their leading and trailing `/` runs, like URL paths; a pattern ending
    /// in `/*` also gets its parent (`/buy/*` matches `/buy`). `/a/*/c` gets none: only a trailing `/*` counts.
    static func pathPatterns(_ text: String) -> (main: String, parent: String?) {
        var main = Substring(text)
        while main.first == "/" { main.removeFirst() }
        while main.last == "/" { main.removeLast() }
        var stem = main
        while stem.last == "*" { stem.removeLast() }
        guard stem.count < main.count, stem.last == "/" else { return (String(main), nil) }
        while stem.last == "/" { stem.removeLast() }
        return (String(main), String(stem))
    }

    // MARK: - Defaults and components

    /// A `defaults` object, or nil (with a warning) when one of its values has the wrong type.
    private mutating func defaultsLayer(_ value: JSONValue, at pointer: String) -> RuleLayer? {
        skippableLayer(value, at: pointer, name: "the defaults \(pointer)")
    }

    /// `layer(_:at:)` for a part that iOS skips when it cannot read it: nil, with a warning, on a wrong type.
    private mutating func skippableLayer(_ value: JSONValue, at pointer: String, name: String) -> RuleLayer? {
        let outer = skippable
        skippable = SkippablePart(code: .skippedComponent, name: name)
        defer { skippable = outer }
        let own = layer(value, at: pointer)
        return skippable?.skipped == true ? nil : own
    }

    /// A component or `defaults` object: the keys that make a rule. Unknown keys (and `comment`) are ignored,
    /// as Apple ignores them.
    private mutating func layer(_ value: JSONValue, at pointer: String) -> RuleLayer? {
        guard let members = object(value, at: pointer, expected: "an object") else { return nil }
        var layer = RuleLayer()
        if let value = members["/"], let text = string(value, at: pointer + "/~1", expected: "a path pattern string") {
            layer.path = Located(value: text, pointer: pointer + "/~1")
        }
        if let value = members["?"] {
            switch value {
            case .string, .object: layer.query = Located(value: value, pointer: pointer + "/?")
            default: wrongType(value, at: pointer + "/?", expected: "a query pattern string or an object of query item patterns")
            }
        }
        if let value = members["#"], let text = string(value, at: pointer + "/#", expected: "a fragment pattern string") {
            layer.fragment = Located(value: text, pointer: pointer + "/#")
        }
        layer.exclude = members["exclude"].flatMap { bool($0, at: pointer + "/exclude") }
        layer.caseSensitive = members["caseSensitive"].flatMap { bool($0, at: pointer + "/caseSensitive") }
        layer.percentEncoded = members["percentEncoded"].flatMap { bool($0, at: pointer + "/percentEncoded") }
        return layer
    }

    // MARK: - Substitution variables

    private mutating func loadVariables(_ value: JSONValue?, at pointer: String) -> [String: [String]] {
        guard let value, let members = object(value, at: pointer, expected: "an object of string arrays") else { return [:] }
        var variables: [String: [String]] = [:]
        for name in members.keys.sorted() {
            let namePointer = JSONPointer.appending(name, to: pointer)
            if name.isEmpty || name.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
                report(
                    .invalidVariableName,
                    at: namePointer,
                    "the variable name \"\(name)\" is empty or contains $, ( or ), so no pattern can use it"
                )
            }
            if PatternCompiler.predefinedNames.contains(name) {
                report(
                    .shadowedPredefinedVariable,
                    at: namePointer,
                    "\"\(name)\" replaces the predefined $(\(name)) in every pattern of this file"
                )
            }
            guard let items = array(members[name]!, at: namePointer, expected: "an array of strings") else { continue }
            if items.isEmpty {
                report(.emptyVariable, at: namePointer, "$(\(name)) has no values, so a pattern that uses it never matches")
            }
            var values: [String] = []
            for (index, item) in items.enumerated() {
                let itemPointer = JSONPointer.appending(index, to: namePointer)
                guard let text = string(item, at: itemPointer, expected: "a string") else { continue }
                if text.contains("$(") {
                    report(
                        .recursiveSubstitution,
                        at: itemPointer,
                        "the value \"\(text)\" refers to another variable; substitution values may use * and ? but not $(…)"
                    )
                }
                values.append(text)
            }
            variables[name] = values
        }
        return variables
    }

    // MARK: - Shadowed rules

    /// AASA180 on a rule that matches every URL while rules follow it, AASA190 on each rule it shadows.
    /// A catch-all that is the last rule is deliberate ("everything else") and not reported.
    private mutating func reportShadowedRules(in details: [CompiledDetail]) {
        for detail in details {
            guard let first = detail.rules.firstIndex(where: \.matchesEverything), first + 1 < detail.rules.count else { continue }
            let catchAll = detail.rules[first]
            let shadowed = detail.rules[(first + 1)...]
            report(
                .catchAllShadowsRules,
                at: catchAll.pointer,
                "this rule matches every URL, so \(shadowed.count == 1 ? "the rule after it never runs" : "the \(shadowed.count) rules after it never run")"
            )
            for rule in shadowed {
                report(
                    .unreachableRule,
                    at: rule.pointer,
                    "this rule never runs: \(catchAll.pointer) before it already matches every URL"
                )
            }
        }
    }

    // MARK: - Typed access

    private mutating func object(_ value: JSONValue, at pointer: String, expected: String) -> [String: JSONValue]? {
        if case .object(let members) = value { return members }
        wrongType(value, at: pointer, expected: expected)
        return nil
    }

    private mutating func array(_ value: JSONValue, at pointer: String, expected: String) -> [JSONValue]? {
        if case .array(let items) = value { return items }
        wrongType(value, at: pointer, expected: expected)
        return nil
    }

    private mutating func string(_ value: JSONValue, at pointer: String, expected: String) -> String? {
        if case .string(let text) = value { return text }
        wrongType(value, at: pointer, expected: expected)
        return nil
    }

    private mutating func bool(_ value: JSONValue, at pointer: String) -> Bool? {
        if case .bool(let flag) = value { return flag }
        wrongType(value, at: pointer, expected: "true or false")
        return nil
    }

    /// Skips the part being loaded, with a warning, or refuses the file at the document level.
    private mutating func wrongType(_ value: JSONValue, at pointer: String, expected: String) {
        guard let part = skippable else {
            report(.wrongType, at: pointer, "expected \(expected), found \(value.typeName)")
            return
        }
        report(part.code, at: pointer, "expected \(expected), found \(value.typeName); iOS skips \(part.name), as appflipd does")
        skippable?.skipped = true
    }

    private mutating func report(_ code: AASADiagnostic.Code, at pointer: String, _ message: String) {
        // Defaults are compiled into every rule that inherits them; their problems are reported once.
        guard reported.insert(ReportKey(code: code, pointer: pointer)).inserted else { return }
        diagnostics.append(AASADiagnostic(code, at: pointer, message))
    }
}
