import AppFlipCore
import Testing

/// A statement list's body read as each verifier reads it: Android 12+'s StatementService
/// (`network/retriever/UrlFetcher.kt`) skips a body whose `getContentLength()` is over 1 MiB and reads any
/// other whole (`readText()`, no limit); Android 6–11's (`retriever/URLFetcher.java`) also stops reading past
/// 1 MiB and throws; Google's verifier has a limit it does not publish (`ERROR_CODE_TOO_LARGE`). What appflip
/// did not read (`cutAt`) a verifier that would read it cannot be judged on.
@Suite struct StatementBodyReadingTests {
    static let mebibyte = StatementServiceVerifier.sizeLimit
    /// A delegating statement list padded past 1 MiB with white space, valid JSON all the same.
    static let large = Array(
        ("[" + String(repeating: " ", count: mebibyte)
            + AssetLinksDiagnosticTests.androidStatement(
                package: AppLinkVerifierTests.package,
                fingerprints: "[\"\(AppLinkVerifierTests.fingerprint)\"]"
            ).dropFirst()).utf8
    )

    static func states(_ response: HostResponse) -> [String] {
        let identity = AndroidIdentity(
            package: AppLinkVerifierTests.package,
            fingerprints: [AppLinkVerifierTests.fingerprint],
            intentFilters: [IntentFilter(autoVerify: true, schemes: ["https"], authorities: [.init(host: AppLinkVerifierTests.host)])]
        )
        let responses = [AppLinkVerifierTests.url: FetchResult.response(response)]
        return [(AppLinkVerifier.statementService, AndroidGeneration.android12), (.statementService, .android11AndEarlier), (.google, .android12)].map
        {
            verifier,
            generation in
            AppLinksPrediction.hostVerdict(AppLinkVerifierTests.host, app: identity, verifier: verifier, generation: generation, responses: responses)
                .state.description
        }
    }

    /// Each body, and the state each verifier gives it: StatementService on Android 12+ and on 6–11, then Google's.
    @Test(arguments: [
        // Small and whole: every verifier reads it.
        (HostResponse(status: 200, body: AppLinkVerifierTests.good), ["verified", "verified", "verified"]),
        // Past 1 MiB without a Content-Length, read whole by appflip: 12+ reads it all; 6–11 stop past 1 MiB.
        (HostResponse(status: 200, body: StatementBodyReadingTests.large), ["verified", "1026", "could not judge"]),
        // Past appflip's bound without a Content-Length: 12+ would read on.
        (HostResponse(status: 200, body: [], cutAt: HostingPolicy.assetLinksReadLimit), ["could not judge", "1026", "could not judge"]),
        // A Content-Length over 1 MiB: neither StatementService reads any of it.
        (HostResponse(status: 200, contentLength: 2 * StatementBodyReadingTests.mebibyte, body: [], cutAt: 0), ["1026", "1026", "could not judge"]),
        // A Content-Length above Java's int: getContentLength() is -1, so 12+ reads on; 6–11 stop past 1 MiB.
        (HostResponse(status: 200, contentLength: 3 << 30, body: [], cutAt: 0), ["could not judge", "1026", "could not judge"]),
        // Exactly 1 MiB declared: within every limit.
        (
            HostResponse(status: 200, contentLength: StatementBodyReadingTests.mebibyte, body: AppLinkVerifierTests.good),
            ["verified", "verified", "verified"]
        ),
    ])
    func eachVerifierReadsAsFarAsItsCodeDoes(response: HostResponse, expected: [String]) {
        #expect(Self.states(response) == expected)
    }

    @Test func whatIsNotJudgedSaysWhoseBoundItIs() {
        let cut = HostResponse(status: 200, body: [], cutAt: HostingPolicy.assetLinksReadLimit)
        let verdict = StatementServiceVerifier.verdict(
            forManifestHost: AppLinkVerifierTests.host,
            package: AppLinkVerifierTests.package,
            signedBy: [AppLinkVerifierTests.fingerprint],
            responses: [AppLinkVerifierTests.url: .response(cut)]
        )
        #expect(verdict.reason.contains("appflip stopped at its own bound of \(HostingPolicy.assetLinksReadLimit) bytes"), "\(verdict.reason)")
        let google = GoogleVerifier.verify(
            site: WebSite(scheme: "https", host: AppLinkVerifierTests.host),
            responses: [AppLinkVerifierTests.url: .response(cut)]
        )
        #expect(google.unjudged.first?.contains("ERROR_CODE_TOO_LARGE") == true)
        #expect(google.errors.isEmpty)
    }

    /// An include past the limits fails or leaves the verdict unjudged as the file itself would.
    @Test func anIncludeIsReadTheSameWay() {
        let include = "https://links.example.com/more.json"
        let including = Array(#"[{"include": "https://links.example.com/more.json"}]"#.utf8)
        let responses: [String: FetchResult] = [
            AppLinkVerifierTests.url: .response(HostResponse(status: 200, body: including)),
            include: .response(HostResponse(status: 200, body: [], cutAt: HostingPolicy.assetLinksReadLimit)),
        ]
        let current = StatementServiceVerifier.verdict(
            forManifestHost: AppLinkVerifierTests.host,
            package: AppLinkVerifierTests.package,
            signedBy: [AppLinkVerifierTests.fingerprint],
            responses: responses
        )
        #expect(current.state == .couldNotJudge)
        let legacy = StatementServiceVerifier.verdict(
            forManifestHost: AppLinkVerifierTests.host,
            package: AppLinkVerifierTests.package,
            signedBy: [AppLinkVerifierTests.fingerprint],
            legacy: true,
            responses: responses
        )
        #expect(legacy.state == .rejectedByServer)
    }
}
