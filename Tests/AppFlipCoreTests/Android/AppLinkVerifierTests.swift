import AppFlipCore
import Testing

/// Both verifiers over fetched responses: each HTTP outcome, the content type, the size limit, includes.
@Suite struct AppLinkVerifierTests {
    static let fingerprint = Array(repeating: "C3", count: 32).joined(separator: ":")
    static let package = "com.example.partner"
    static let host = "links.example.com"
    static let url = "https://links.example.com/.well-known/assetlinks.json"
    static let good = Array(AssetLinksDiagnosticTests.androidStatement(package: package, fingerprints: "[\"\(fingerprint)\"]").utf8)

    static func google(_ responses: [String: FetchResult]) -> HostVerdict {
        GoogleVerifier.verify(site: WebSite(scheme: "https", host: host), responses: responses).verdict(forPackage: package, signedBy: [fingerprint])
    }

    static func aosp(_ responses: [String: FetchResult], host: String = host) -> HostVerdict {
        StatementServiceVerifier.verdict(forManifestHost: host, package: package, signedBy: [fingerprint], responses: responses)
    }

    static func served(
        _ status: Int = 200,
        contentType: String? = "application/json",
        location: String? = nil,
        length: Int? = nil,
        body: [UInt8] = good
    ) -> [String: FetchResult] {
        [url: .response(HostResponse(status: status, location: location, contentType: contentType, contentLength: length, body: body))]
    }

    @Test func theRightFileVerifiesOnBoth() {
        #expect(Self.google(Self.served()).state == .verified)
        #expect(Self.aosp(Self.served()).state == .verified)
        #expect(Self.google(Self.served(contentType: "application/json; charset=utf-8")).state == .verified)
    }

    @Test func redirects() {
        for status in [301, 302] {
            #expect(Self.aosp(Self.served(status, location: "https://www.example.com/.well-known/assetlinks.json")).state == .redirect)
        }
        // 307 and 308 are not 301/302 to StatementService: no content, so rejected.
        #expect(Self.aosp(Self.served(307)).state == .rejectedByServer)
        let verification = GoogleVerifier.verify(site: WebSite(scheme: "https", host: Self.host), responses: Self.served(308))
        #expect(verification.errors == [.redirect])
    }

    @Test func statusesOtherThan200() {
        #expect(Self.aosp(Self.served(404)).state == .rejectedByServer)
        #expect(Self.aosp(Self.served(500)).state == .rejectedByServer)
        #expect(Self.google(Self.served(404)).state == .unknown)
    }

    @Test func unreachableOrWrongCertificate() {
        #expect(Self.aosp([Self.url: .tlsFailed(reason: "certificate is for other.example")]).state == .rejectedByServer)
        #expect(Self.aosp([:]).state == .rejectedByServer)
        let verification = GoogleVerifier.verify(
            site: WebSite(scheme: "https", host: Self.host),
            responses: [Self.url: .tlsFailed(reason: "expired")]
        )
        #expect(verification.errors == [.failedSSLValidation])
    }

    /// Only Google's verifier checks the content type.
    @Test func contentType() {
        let responses = Self.served(contentType: "text/plain")
        #expect(Self.aosp(responses).state == .verified)
        #expect(GoogleVerifier.verify(site: WebSite(scheme: "https", host: Self.host), responses: responses).errors == [.wrongContentType])
    }

    @Test func anHTMLSoft404() {
        let page = Array("<!DOCTYPE html><html><body>Not found</body></html>".utf8)
        #expect(Self.aosp(Self.served(contentType: "application/json", body: page)).state == .failureUnknown)
        let verification = GoogleVerifier.verify(site: WebSite(scheme: "https", host: Self.host), responses: Self.served(body: page))
        #expect(verification.errors == [.malformedContent])
        #expect(verification.documents.first?.list.refusal?.code == .htmlInsteadOfJSON)
    }

    /// StatementService checks the declared length, not the bytes.
    @Test func theSizeLimitIsTheDeclaredLength() {
        #expect(Self.aosp(Self.served(length: StatementServiceVerifier.sizeLimit + 1)).state == .rejectedByServer)
        #expect(Self.aosp(Self.served(length: StatementServiceVerifier.sizeLimit)).state == .verified)
    }

    @Test func aMalformedStatementFailsOnlyStatementService() {
        let body =
            "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"web\", \"site\": \"https://a.example/app\"}}, \(String(decoding: Self.good.dropFirst().dropLast(), as: UTF8.self))]"
        let responses = Self.served(body: Array(body.utf8))
        #expect(Self.aosp(responses).state == .failureUnknown)
        #expect(Self.google(responses).state == .verified)
    }

    @Test func aStatementForAnotherAppIsRejected() {
        let other = StatementServiceVerifier.verdict(
            forManifestHost: Self.host,
            package: "com.example.other",
            signedBy: [Self.fingerprint],
            responses: Self.served()
        )
        #expect(other.state == .rejectedByServer)
        let lower = StatementServiceVerifier.verdict(
            forManifestHost: Self.host,
            package: Self.package,
            signedBy: [Self.fingerprint.lowercased()],
            responses: Self.served()
        )
        #expect(lower.state == .rejectedByServer)
    }

    @Test func includesOneLevelOnStatementServiceAndNestedOnGoogle() {
        let top = Array("[{\"include\": \"https://links.example.com/one.json\"}]".utf8)
        let one = Array("[{\"include\": \"https://links.example.com/two.json\"}]".utf8)
        var responses = Self.served(body: top)
        responses["https://links.example.com/one.json"] = .response(HostResponse(status: 200, body: one))
        responses["https://links.example.com/two.json"] = .response(HostResponse(status: 200, body: Self.good))
        #expect(Self.aosp(responses).state == .rejectedByServer)
        #expect(Self.google(responses).state == .verified)
        responses["https://links.example.com/one.json"] = .response(HostResponse(status: 200, body: Self.good))
        #expect(Self.aosp(responses).state == .verified)
    }

    /// The content type is Google's rule for the site's own file; for an include only the status is documented.
    @Test func anIncludeNeedsOnly200() {
        var responses = Self.served(body: Array("[{\"include\": \"https://links.example.com/one.json\"}]".utf8))
        responses["https://links.example.com/one.json"] = .response(HostResponse(status: 200, contentType: "text/plain", body: Self.good))
        #expect(Self.google(responses).state == .verified)
        responses["https://links.example.com/one.json"] = .response(HostResponse(status: 404, body: Self.good))
        #expect(Self.google(responses).state == .unknown)
    }

    @Test func anHTTPIncludeFailsStatementServiceAndIsRefusedByGoogle() {
        var responses = Self.served(body: Array("[{\"include\": \"http://links.example.com/one.json\"}]".utf8))
        responses["http://links.example.com/one.json"] = .response(HostResponse(status: 200, body: Self.good))
        #expect(Self.aosp(responses).state == .failureUnknown)
        let verification = GoogleVerifier.verify(site: WebSite(scheme: "https", host: Self.host), responses: responses)
        #expect(verification.errors == [.secureAssetIncludesInsecure])
    }

    @Test func anIncludeLoopEndsInTheFetchBudget() {
        var responses = Self.served(body: Array("[{\"include\": \"https://links.example.com/loop.json\"}]".utf8))
        responses["https://links.example.com/loop.json"] = .response(
            HostResponse(status: 200, body: Array("[{\"include\": \"https://links.example.com/.well-known/assetlinks.json\"}]".utf8))
        )
        let verification = GoogleVerifier.verify(site: WebSite(scheme: "https", host: Self.host), responses: responses)
        #expect(verification.errors == [.fetchBudgetExhausted])
    }

    @Test func aWildcardHostIsVerifiedAtItsApex() {
        let responses = Self.served()
        #expect(Self.aosp(responses, host: "*.links.example.com").state == .verified)
    }

    @Test func aByteOrderMarkFailsStatementService() {
        let responses = Self.served(body: [0xEF, 0xBB, 0xBF] + Self.good)
        #expect(Self.aosp(responses).state == .failureUnknown)
        #expect(Self.google(responses).state == .verified)
    }

    @Test func statesPrintAsPmDoes() {
        #expect(AppLinkState.verified.description == "verified")
        #expect(AppLinkState.none.description == "none")
        #expect(AppLinkState.failureUnknown.description == "1028")
    }
}
