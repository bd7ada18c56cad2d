import AppFlipCore

/// Which exchanges of the run each result refers to, so that a reader goes from a finding to the requests and
/// answers that showed it (`exchanges` in `--json`, `_entries` in the HAR) and back (`findings`,
/// `_appflipFindings`). A result refers to:
/// - every exchange or handoff its reason and evidence name as `#N`, the way every answer is quoted;
/// - every one sent for it: a purpose starts with the check ids it was sent for (`token.refresh-chain:
///   refresh 2`, `partner.route, partner.code: a valid flip link`);
/// - when it was judged (not skipped), every file its target's hosted fetch fetched (the purpose starts with
///   the target, `association-file: URL`): each hosting rule and the file's own rules read that answer.
/// An exchange sent for no check in particular (a fresh code for the token checks) is referred to only where
/// an evidence line names it.
struct ExchangeReferences: Sendable {
    let exchanges: [RecordedExchange]
    let handoffs: [RecordedHandoff]

    init(_ exchanges: [RecordedExchange], _ handoffs: [RecordedHandoff]) {
        self.exchanges = exchanges
        self.handoffs = handoffs
    }

    /// `results`, each with the numbers of the exchanges it refers to, in order.
    func attached(to results: [AuditResult]) -> [AuditResult] {
        let known = Set(exchanges.map(\.id) + handoffs.map(\.id))
        let purposes = exchanges.map { ($0.id, $0.purpose) } + handoffs.map { ($0.id, $0.purpose) }
        var sentFor: [CheckSpec: Set<Int>] = [:]
        var sentForTarget: [AuditTarget: Set<Int>] = [:]
        for (id, purpose) in purposes {
            for subject in Self.subjects(of: purpose) {
                switch subject {
                case .check(let check): sentFor[check, default: []].insert(id)
                case .target(let target): sentForTarget[target, default: []].insert(id)
                }
            }
        }
        return results.map { result in
            var ids = Self.named(in: [result.reason] + result.evidence).intersection(known)
            ids.formUnion(sentFor[result.check] ?? [])
            if result.outcome != .skipped { ids.formUnion(sentForTarget[result.check.target] ?? []) }
            var referred = result
            referred.exchanges = ids.sorted()
            return referred
        }
    }

    /// What a purpose says a request was sent for.
    enum Subject: Equatable {
        case check(CheckSpec)
        case target(AuditTarget)
    }

    /// The check ids (or the target) a purpose starts with: the text before its first `": "` (or all of it),
    /// without a parenthesised remark, as a comma-separated list.
    static func subjects(of purpose: String) -> [Subject] {
        var head = purpose.firstRange(of: ": ").map { String(purpose[..<$0.lowerBound]) } ?? purpose
        if let remark = head.firstRange(of: " (") { head = String(head[..<remark.lowerBound]) }
        return head.split(separator: ", ").map(String.init).compactMap { item in
            if let check = AuditCatalogue.spec(id: item) { return .check(check) }
            return AuditTarget(rawValue: item).map(Subject.target)
        }
    }

    /// The numbers written `#N` in `texts`: a `#` at the start or after a space or an opening parenthesis,
    /// then digits, then no further digit (so a URL's fragment `…/a#12` is not one).
    static func named(in texts: [String]) -> Set<Int> {
        var found: Set<Int> = []
        for text in texts {
            let characters = Array(text)
            var index = 0
            while index < characters.count {
                defer { index += 1 }
                guard characters[index] == "#", index == 0 || characters[index - 1] == " " || characters[index - 1] == "(" else { continue }
                let digits = characters[(index + 1)...].prefix { $0.isASCII && $0.isNumber }
                if !digits.isEmpty, digits.count < 10, let number = Int(String(digits)) { found.insert(number) }
            }
        }
        return found
    }
}
