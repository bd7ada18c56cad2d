/// The `applinks` section of an apple-app-site-association file, checked and compiled.
///
/// Loading refuses an invalid document whole, with every diagnostic; a loaded file never holds half a
/// document. Patterns are compiled once here, so deciding a URL never parses anything again.
public struct AssociationFile: Sendable {
    /// The warnings found while loading: legal, but probably not what the author meant.
    public var warnings: [AASADiagnostic] { storage.warnings }
    /// Every app identifier the file names, in document order, without repeats.
    public var appIDs: [String] { storage.appIDs }
    /// Apple's limit on a file's size, 128 KB: a larger file is refused (AASA170), and a fetch stops reading there.
    public static let maximumSize = AssociationFileLoader.maximumSize

    /// One immutable reference, so that copying a file (into every route-table entry, per candidate) costs
    /// one retain.
    private let storage: Storage

    private final class Storage: Sendable {
        let warnings: [AASADiagnostic]
        let appIDs: [String]
        let details: [CompiledDetail]
        /// For each app id, the indices of the details entries that list it, in order.
        let detailIndicesByApp: [String: [Int]]

        init(details: [CompiledDetail], warnings: [AASADiagnostic]) {
            var indices: [String: [Int]] = [:]
            var appIDs: [String] = []
            for (index, detail) in details.enumerated() {
                for appID in detail.appIDs where indices[appID]?.last != index {
                    if indices[appID] == nil { appIDs.append(appID) }
                    indices[appID, default: []].append(index)
                }
            }
            self.details = details
            self.warnings = warnings
            self.detailIndicesByApp = indices
            self.appIDs = appIDs
        }
    }

    /// Loads UTF-8 JSON text.
    public init(json: some Collection<UInt8>) throws(AASALoadError) {
        var loader = AssociationFileLoader()
        let details = loader.load(json: json)
        try self.init(details: details, loader: loader)
    }

    /// Loads an already-parsed document.
    public init(document: JSONValue) throws(AASALoadError) {
        var loader = AssociationFileLoader()
        let details = loader.load(document: document)
        try self.init(details: details, loader: loader)
    }

    private init(details: [CompiledDetail], loader: AssociationFileLoader) throws(AASALoadError) {
        guard !loader.hasErrors else { throw AASALoadError(diagnostics: loader.diagnostics) }
        storage = Storage(details: details, warnings: loader.diagnostics)
    }

    /// Every diagnostic for UTF-8 JSON text, errors and warnings, in document order. Warnings about what a
    /// document does (AASA180, AASA190, AASA193) appear only when it has no errors, since a refused document
    /// does nothing.
    public static func validate(json: some Collection<UInt8>) -> [AASADiagnostic] {
        var loader = AssociationFileLoader()
        _ = loader.load(json: json)
        return loader.diagnostics
    }

    /// Every diagnostic for an already-parsed document.
    public static func validate(document: JSONValue) -> [AASADiagnostic] {
        var loader = AssociationFileLoader()
        _ = loader.load(document: document)
        return loader.diagnostics
    }

    /// A path for each path pattern of the file, in document order without repeats: `*`, `?` and `$(…)` each
    /// become `x` (`/buy/*` gives `/buy/x`). Drift reports decide these on both files.
    public var samplePaths: [String] {
        var seen: Set<String> = []
        return storage.details.flatMap(\.rules).compactMap { rule in
            guard let written = rule.writtenPath else { return nil }
            let path = Self.samplePath(written)
            return seen.insert(path).inserted ? path : nil
        }
    }

    static func samplePath(_ pattern: String) -> String {
        var sample = ""
        var rest = Substring(pattern)
        while let first = rest.first {
            if rest.hasPrefix("$("), let close = rest.firstIndex(of: ")") {
                sample += "x"
                rest = rest[rest.index(after: close)...]
                continue
            }
            sample += first == "*" || first == "?" ? "x" : String(first)
            rest = rest.dropFirst()
        }
        return sample.hasPrefix("/") ? sample : "/" + sample
    }

    /// What the file says about `url` for `appID`: the first rule that decides, in the order of the details
    /// entries that list the app and then of their components. The host is not checked here: the file does
    /// not know which domain served it (`RouteTable` and `AssociatedDomain` do that).
    public func decide(appID: String, url: RawURL) -> AppDecision {
        var input = MatchInput(url)
        return decide(details: details(listing: appID), input: &input)
    }

    /// The indices of the `details` entries that list `appID`, in order: what a decision for it walks. A
    /// route table looks them up once per app, not once per URL.
    func details(listing appID: String) -> [Int] {
        storage.detailIndicesByApp[appID] ?? []
    }

    /// The decision of the `details` entries at `indices`, as ``details(listing:)`` gave them.
    func decide(details indices: [Int], input: inout MatchInput) -> AppDecision {
        for detailIndex in indices {
            let rules = storage.details[detailIndex].rules
            for ruleIndex in rules.indices where rules[ruleIndex].matches(&input) {
                let rule = rules[ruleIndex]
                return AppDecision(
                    outcome: rule.excludes ? .exclude : .match,
                    detailsIndex: detailIndex,
                    componentIndex: ruleIndex,
                    rule: rule.text,
                    pointer: rule.pointer
                )
            }
        }
        return .noMatch
    }
}
