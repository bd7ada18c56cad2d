/// What changed in meaning between a committed statement list and the hosted one: the apps (package and
/// fingerprint) whose links are delegated that appear or vanish, and each verifier whose verdict for the
/// checked app changes. Formatting, order and other relations do not count.
public struct AssetLinksDrift: Sendable, Hashable {
    /// `package fingerprint` pairs delegated `handle_all_urls` by the hosted file and not the committed one.
    public let appeared: [String]
    /// Pairs delegated by the committed file and no longer by the hosted one.
    public let vanished: [String]
    /// `verifier: before → after` for each verifier whose state for the checked app changes.
    public let verdictChanges: [String]

    /// Compares `committed` with `hosted` (nil when the host served no readable file), the verdicts taken with
    /// the committed file in place of the hosted one and the same includes.
    init(committed bytes: [UInt8], hosted: StatementList?, host: String, check: AssetLinksFileCheck, responses: [String: FetchResult]) {
        let before = Self.delegations(StatementList(json: bytes))
        let after = hosted.map(Self.delegations) ?? []
        appeared = after.filter { !before.contains($0) }
        vanished = before.filter { !after.contains($0) }
        let url = StatementServiceVerifier.statementListURL(forManifestHost: host)
        var replaced = responses
        replaced[url] = .response(HostResponse(status: 200, contentType: "application/json", body: bytes))
        let now = check.predict(host: host, responses: responses)
        let then = check.predict(host: host, responses: replaced)
        verdictChanges = zip(then, now).compactMap { old, new in
            guard old.verdict.state != new.verdict.state else { return nil }
            return "\(new.verifier.rawValue) on \(new.generation.rawValue): \(old.verdict.state) → \(new.verdict.state)"
        }
    }

    /// Nothing changed in meaning.
    public var isEmpty: Bool { appeared.isEmpty && vanished.isEmpty && verdictChanges.isEmpty }

    /// One line for the check's evidence.
    public var summary: String {
        if isEmpty { return "the hosted file delegates to the same apps, with the same verdicts, as the committed one" }
        var parts: [String] = []
        if !appeared.isEmpty { parts.append("appeared: " + appeared.joined(separator: ", ")) }
        if !vanished.isEmpty { parts.append("vanished: " + vanished.joined(separator: ", ")) }
        if !verdictChanges.isEmpty { parts.append("verdicts: " + verdictChanges.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }

    private static func delegations(_ list: StatementList) -> [String] {
        var pairs: [String] = []
        for statement in list.googleStatements where statement.relations.contains(RelationString.handleAllURLs) {
            guard case .androidApp(let package, let fingerprints) = statement.target else { continue }
            for fingerprint in fingerprints where !pairs.contains("\(package) \(fingerprint)") { pairs.append("\(package) \(fingerprint)") }
        }
        return pairs
    }
}
