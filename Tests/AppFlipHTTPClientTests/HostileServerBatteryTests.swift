import AppFlipAudit
import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import AppFlipTestSupport
import AppFlipTesting
import AsyncHTTPClient
import Logging
import Testing

/// Every hostile shape against every endpoint kind appflip calls: each ends within its bound as what it is,
/// a could-not-run that names the endpoint and the bound, or a rule verdict when the answer is well-formed
/// but wrong. Never a hang, a crash or a verdict on a transport failure.
///
/// The shapes that test the deadline run with a short one (2 s, 1 s to connect; the HTTPS association fetch
/// 8 s, 4 s to connect); the others with the production 10 s, so that on a loaded machine the bound they test
/// (a cap, the parser) is reached before the deadline, and they end in well under a second all the same.
/// Every time here is scaled by `TestTime` under a sanitizer. Slow: over a hundred servers, many of them waiting
/// out a deadline, and timing-bound, so they run apart from the other HTTP suites (scripts/swift-test-groups).
@Suite(.slow) struct HostileServerBatteryTests {
    /// The shapes whose bound is the deadline.
    static let deadlineShapes: Set<HostileShape> = [.silent, .headersThenSilence, .trickle]
    /// The bounds a shape runs with: the deadline shortened for the deadline shapes, the caps unchanged.
    static func bounds(_ shape: HostileShape) -> OutboundBounds {
        .oauth(deadline: deadlineShapes.contains(shape) ? TestTime.seconds(2) : TestTime.seconds(10))
    }
    static let connectTimeout = TestTime.seconds(1)
    /// The association fetch's timeout; it connects within half of it.
    /// 8 s for the deadline shapes: the handshake then has 4 s, room enough when the test groups load both cores.
    static func associationTimeout(_ shape: HostileShape) -> Duration {
        deadlineShapes.contains(shape) ? TestTime.seconds(8) : TestTime.seconds(10)
    }
    /// A few calls at a time: every case at once starved the event loops of the whole HTTP group (under
    /// ThreadSanitizer, TLS handshakes of other suites ran past their connect bound), and each case's
    /// clock starts only once it has its turn.
    static let calls = ConcurrencyLimit(4)
    /// No shape may hold a call longer than this (generous: 2 loaded cores); each is cut at 2 s.
    static let hangBound = TestTime.seconds(15)

    /// What one call came to.
    struct Outcome: CustomStringConvertible {
        /// The could-not-run sentence (the partner handler: the `cancelled` reason; `appflip flip`: the token
        /// failure), or nil when the call ran.
        var couldNotRun: String?
        /// The checks or rules that failed, by id.
        var failed: [String] = []
        /// How long the call took, server teardown aside.
        var elapsed: Duration = .zero

        var description: String { couldNotRun.map { "could not run: \($0)" } ?? "failed: \(failed.joined(separator: ", "))" }
    }

    /// What a shape must come to.
    enum Expected {
        /// Could not run, the sentence naming the endpoint (`endpoint`) and holding `words`.
        case couldNotRun(String)
        /// Ran, and this check (or hosting rule) failed.
        case fails(String)
    }

    /// The endpoint kinds appflip calls.
    enum Kind: String, CaseIterable, Sendable {
        /// `appflip audit`'s token-endpoint checks.
        case tokenAudit
        /// `appflip audit`'s authorization-endpoint checks.
        case authorizationAudit
        /// `appflip audit --aasa-domain`'s hosted file (HTTPS).
        case associationAudit
        /// The daemon's partner handler calling a remote authorization endpoint.
        case partnerHandler
        /// `appflip flip`'s code exchange.
        case flipExchange
    }

    /// The words every transport shape is reported with, whatever the endpoint.
    static func transportWords(_ shape: HostileShape, cap: String, deadline: String = "\(2 * TestTime.scale) s") -> String? {
        switch shape {
        case .silent: "did not answer within \(deadline)"
        case .headersThenSilence: "answered its headers, then nothing until the \(deadline) deadline"
        case .trickle: "bytes of its body, without finishing it, within the \(deadline) deadline"
        case .endlessBody: "sent more than \(cap) without finishing its body"
        case .endlessHeaders, .hugeHeaders: "sent more than 80 KiB of headers"
        case .pastCapWithLength: "announced a body of 200000 bytes (Content-Length), over the \(cap) cap"
        case .pastCapChunked: "sent more than \(cap) without finishing its body"
        case .lyingChunkSize: "closed the connection in the middle of its body"
        case .malformedStatusLine: "answered with something that is not HTTP/1.1"
        case .resetMidBody: "the connection in the middle of its body"
        case .closeDelimited, .nonUTF8JSON, .deeplyNestedJSON, .infiniteExpiresIn, .unaskedGzip, .redirectLoop: nil
        }
    }

    static func expected(_ shape: HostileShape, _ kind: Kind) -> Expected {
        if kind == .associationAudit {
            switch shape {
            // Apple's 128 KB is a hosting rule: a file past it is a verdict, not a failure to run.
            case .endlessBody, .pastCapWithLength, .pastCapChunked: return .fails("aasa.hosted-size")
            case .redirectLoop: return .fails("aasa.hosted-no-redirect")
            // Valid JSON, but no applinks for the app.
            case .closeDelimited: return .fails("aasa.routes-link")
            case .nonUTF8JSON, .deeplyNestedJSON, .infiniteExpiresIn, .unaskedGzip: return .fails("aasa.valid")
            default: return .couldNotRun(transportWords(shape, cap: "128 KiB", deadline: "\(8 * TestTime.scale) s")!)
            }
        }
        if let words = transportWords(shape, cap: "64 KiB") { return .couldNotRun(words) }
        switch kind {
        case .tokenAudit: return .fails("token.exchange")
        // No redirect to the redirect_uri for a valid request: the sign-in precondition cannot be met.
        case .authorizationAudit:
            return .couldNotRun(
                shape == .redirectLoop
                    ? "a valid request was sent away from its redirect_uri" : "neither a redirect to its redirect_uri nor a sign-in refusal"
            )
        case .partnerHandler:
            return .couldNotRun(shape == .redirectLoop ? "redirected to /authorize instead of the redirect_uri" : "HTTP 200 instead of a redirect")
        case .flipExchange:
            return .couldNotRun(shape == .redirectLoop ? "HTTP 302" : "HTTP 200 without a JSON body holding access_token and token_type")
        case .associationAudit: preconditionFailure("handled above")
        }
    }

    /// Who the sentence names for `kind` against a server on `port`.
    static func endpointName(_ kind: Kind, port: Int, scheme: String = "http") -> String {
        switch kind {
        case .tokenAudit: "the token endpoint \(scheme)://127.0.0.1:\(port)/token"
        case .authorizationAudit: "the authorization endpoint \(scheme)://127.0.0.1:\(port)/authorize"
        case .associationAudit: "the hosted association file of hostile.example: the server"
        case .partnerHandler: "\(scheme)://127.0.0.1:\(port)/authorize"
        case .flipExchange: "\(scheme)://127.0.0.1:\(port)/token"
        }
    }

    @Test(arguments: HostileShape.allCases, Kind.allCases)
    func eachShapeEndsAsWhatItIs(shape: HostileShape, kind: Kind) async throws {
        try await Self.calls.run { try await checkShape(shape, kind) }
    }

    private func checkShape(_ shape: HostileShape, _ kind: Kind) async throws {
        // Only the HTTPS fetch needs a certificate authority; making one costs CPU the other calls need.
        let fixture = kind == .associationAudit ? try HostedTestFixture() : nil
        defer { fixture?.remove() }
        let tls = try fixture.map { try $0.authority.serverIdentity(for: ["localhost"]) }
        let start = ContinuousClock.now
        let (outcome, port, requests) = try await HostileServer.with(shape, tls: tls) { server in
            (try await Self.call(kind, port: server.port, fixture: fixture, shape: shape), server.port, server.requestCount)
        }
        let elapsed = ContinuousClock.now - start
        print("hostile-battery | \(kind.rawValue) | \(shape.rawValue) | \(outcome.elapsed) | \(elapsed) | \(outcome)")
        #expect(elapsed < Self.hangBound, "\(shape) against \(kind) took \(elapsed)")
        // The call itself ends within its deadline, and a little: the server's teardown is not its time.
        let bound = kind == .associationAudit ? Self.associationTimeout(shape) : Self.bounds(shape).deadline
        #expect(outcome.elapsed < bound + .seconds(3), "\(outcome.elapsed)")
        switch Self.expected(shape, kind) {
        case .couldNotRun(let words):
            let sentence = try #require(outcome.couldNotRun, "\(shape) against \(kind): \(outcome)")
            #expect(sentence.contains(words), "\(sentence)")
            if Self.transportWords(shape, cap: "") != nil {
                #expect(sentence.contains(Self.endpointName(kind, port: port)), "\(sentence)")
            }
        case .fails(let check):
            #expect(outcome.couldNotRun == nil, "\(shape) against \(kind): \(outcome)")
            #expect(outcome.failed.contains(check), "\(shape) against \(kind): \(outcome)")
        }
        // A redirect is never followed: the loop is asked once per call the client makes, never twice in a row.
        if shape == .redirectLoop && (kind == .partnerHandler || kind == .flipExchange || kind == .associationAudit) {
            #expect(requests == 1)
        }
    }

    @Test(arguments: Kind.allCases)
    func aTLSHandshakeThatNeverCompletesIsCutAtTheConnectTimeout(kind: Kind) async throws {
        try await Self.calls.run { try await checkHandshake(kind) }
    }

    private func checkHandshake(_ kind: Kind) async throws {
        let fixture = kind == .associationAudit ? try HostedTestFixture() : nil
        defer { fixture?.remove() }
        let start = ContinuousClock.now
        // A plain TCP server that reads and never answers, under an https URL: the ClientHello is never answered.
        let (outcome, port) = try await HostileServer.with(.silent) { server in
            (try await Self.call(kind, port: server.port, fixture: fixture, shape: .silent, scheme: "https"), server.port)
        }
        let elapsed = ContinuousClock.now - start
        print("hostile-battery | \(kind.rawValue) | tlsNeverCompletes | \(outcome.elapsed) | \(elapsed) | \(outcome)")
        #expect(elapsed < Self.hangBound)
        let sentence = try #require(outcome.couldNotRun, "\(outcome)")
        // AsyncHTTPClient cannot say whether TCP or TLS was left unfinished: the sentence names both.
        #expect(sentence.contains("did not complete the TCP connection and TLS handshake in "), "\(sentence)")
        #expect(sentence.contains(Self.endpointName(kind, port: port, scheme: "https")), "\(sentence)")
    }

    @Test func theWholeAuditStopsAtItsTimeoutAndKeepsWhatItFinished() async throws {
        try await HostileServer.with(.silent) { server in
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth(connectTimeout: Self.connectTimeout))
            let auditor = Auditor(
                authorization: AuthorizationEndpointTarget(
                    url: "http://127.0.0.1:\(server.port)/authorize",
                    clientID: "c",
                    scopes: ["profile"],
                    credential: nil
                ),
                // Requests bounded at 30 s: only the whole run's 1 s can end this one in time.
                bounds: .oauth(deadline: .seconds(30)),
                timeout: .seconds(1)
            )
            let start = ContinuousClock.now
            let report = await auditor.run(httpClient: client)
            let elapsed = ContinuousClock.now - start
            try await client.shutdown()
            print("hostile-battery | auditor | wholeRunTimeout | \(elapsed) | \(report.unreachable)")
            #expect(elapsed < Self.hangBound)
            #expect(report.exitStatus == 1)
            #expect(report.unreachable.contains { $0.contains("did not finish within its whole-run timeout") }, "\(report.unreachable)")
            #expect(report.result(.authorizeRedirectURIs).outcome == .skipped)
            #expect(report.result(.authorizeRedirectURIs).reason.contains("whole-run timeout"))
        }
    }

    /// Calls the server as `kind` does, with the battery's bounds.
    static func call(
        _ kind: Kind,
        port: Int,
        fixture: HostedTestFixture?,
        shape: HostileShape,
        scheme: String = "http"
    ) async throws -> Outcome {
        let start = ContinuousClock.now
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth(connectTimeout: connectTimeout))
        var outcome = await call(kind, port: port, fixture: fixture, scheme: scheme, shape: shape, client: client)
        try await client.shutdown()
        outcome.elapsed = .now - start
        return outcome
    }

    private static func call(
        _ kind: Kind,
        port: Int,
        fixture: HostedTestFixture?,
        scheme: String,
        shape: HostileShape,
        client: HTTPClient
    ) async -> Outcome {
        let bounds = bounds(shape)
        let base = "\(scheme)://127.0.0.1:\(port)"
        let redirectURI = AppFlipRedirectURI(app: .assistant, variant: .production, environment: .production)
        func failed(_ results: [AuditResult]) -> Outcome {
            // A precondition that could not be met is the audit's could-not-run, with its reason.
            if let unmet = results.first(where: { $0.outcome == .couldNotRun }) { return Outcome(couldNotRun: unmet.reason) }
            return Outcome(failed: results.filter { $0.outcome == .fail }.map(\.check.id))
        }
        switch kind {
        case .tokenAudit:
            let audit = TokenEndpointAudit(
                target: TokenEndpointTarget(url: "\(base)/token", clientID: "c", clientSecret: "s"),
                redirectURI: redirectURI,
                httpClient: client,
                bounds: bounds
            )
            do { return failed(try await audit.run(codes: FreshCodes())) } catch { return Outcome(couldNotRun: "\(error)") }
        case .authorizationAudit:
            let audit = AuthorizationEndpointAudit(
                target: AuthorizationEndpointTarget(url: "\(base)/authorize", clientID: "c", scopes: ["profile"], credential: nil),
                redirectURI: redirectURI,
                httpClient: client,
                bounds: bounds
            )
            do { return failed(try await audit.run()) } catch { return Outcome(couldNotRun: "\(error)") }
        case .associationAudit:
            let target = AssociationTarget(
                source: .hosted(
                    host: "hostile.example",
                    fetch: HostedFetchOptions(
                        source: .cdn(base: "https://localhost:\(port)/a/v1"),
                        trust: .caFile(fixture!.caFile),
                        timeout: associationTimeout(shape)
                    )
                ),
                appID: HostedTestFixture.appID,
                link: try! RawURL("https://hostile.example/flip/1")
            )
            do { return failed(try await target.run()) } catch { return Outcome(couldNotRun: "\(error)") }
        case .partnerHandler:
            let endpoint = AuthorizationEndpoint(
                url: "\(base)/authorize",
                credential: nil,
                httpClient: client,
                timeout: bounds.deadline,
                logger: Logger(label: "hostile-battery")
            )
            let request = AuthorizationRequest(clientID: "c", redirectURI: redirectURI.string, scopes: ["profile"])
            do throws(AuthorizationFailure) {
                _ = try await endpoint.authorizationCode(for: request)
                return Outcome(failed: [])
            } catch {
                // Every such failure must be transient: Google falls back to the browser flow.
                return error.flipError == .cancelled ? Outcome(couldNotRun: error.reason) : Outcome(failed: ["flip.\(error.flipError)"])
            }
        case .flipExchange:
            let exchanger = TokenEndpointClient(
                tokenURL: "\(base)/token",
                clientID: "c",
                clientSecret: "s",
                httpClient: client,
                timeout: bounds.deadline,
                logger: Logger(label: "hostile-battery")
            )
            do {
                _ = try await exchanger.exchange(code: "code", redirectURI: redirectURI.string)
                return Outcome(failed: [])
            } catch {
                return Outcome(couldNotRun: "\(error)")
            }
        }
    }
}

/// A new code for each token check; the hostile server never looks at it.
private struct FreshCodes: AuditCodeSource {
    func freshCode(redirectURI: AppFlipRedirectURI) async throws -> String { "code-\(UInt64.random(in: .min ... .max))" }
}
