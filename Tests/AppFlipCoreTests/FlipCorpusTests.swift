import Testing

@testable import AppFlipCore

/// Every line of the open-redirect corpus (PayloadsAllTheThings, copied with its licence) is refused: as it
/// stands, appended to an allowed URI or host, with the corpus's stand-in domains replaced by Google's redirect
/// host, and as the `redirect_uri` of a flip link, where refusal means declining without any redirect.
@Suite struct FlipCorpusTests {
    static let expectedLineCounts = ["Open-Redirect-payloads.txt": 240, "open_redirect_wordlist.txt": 18, "openredirects.txt": 67]
    static let host = "oauth-redirect.googleusercontent.com"

    /// The candidates one corpus line yields.
    static func candidates(for line: String) -> [String] {
        var candidates = [line, "https://" + host + line, FlipFixtures.assistant.string + line]
        for standIn in ["www.whitelisteddomain.tld", "whitelisteddomain.tld", "www.google.com", "google.com", "example.com"]
        where line.contains(standIn) {
            candidates.append(line.replacing(standIn, with: host))
        }
        return candidates
    }

    @Test(arguments: FlipFixtures.corpusFiles)
    func refusesEveryLine(file: String) throws {
        let lines = try FlipFixtures.corpusLines(file)
        #expect(lines.count == Self.expectedLineCounts[file])
        let policy = try FlipFixtures.policy()
        var checked = 0
        for line in lines {
            for candidate in Self.candidates(for: line) {
                checked += 1
                // No corpus-derived candidate is byte-for-byte one of the 12; if one ever were, it would be
                // right to accept it, so this is asserted rather than assumed.
                #expect(!FlipFixtures.isListed(candidate))
                if case .success = RedirectAllowlist.appFlip.check(candidate) {
                    Issue.record("accepted \(String(reflecting: candidate)) from \(file)")
                }
                let link = try FlipFixtures.link(FlipFixtures.query(redirectURI: PercentEncoding.encodeStrictly(candidate)))
                guard case .decline(let reason) = policy.decide(link) else {
                    Issue.record("did not decline \(String(reflecting: candidate)) from \(file)")
                    continue
                }
                switch reason {
                case .redirectURINotAllowed, .redirectURI(FlipLinkProblem(.redirectURI, .empty)): break
                default: Issue.record("declined \(String(reflecting: candidate)) for the wrong reason: \(reason)")
                }
            }
        }
        print("open-redirect corpus \(file): \(lines.count) lines, \(checked) candidates, all refused")
    }
}
