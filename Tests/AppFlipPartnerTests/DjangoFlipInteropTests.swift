import AppFlipCore
import AppFlipTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// The whole flow against a real third-party OAuth2 server: `appflip flip` plays the Google app, the daemon's
/// `appflip` handler gets the code from django-oauth-toolkit 3.4.1's `/o/authorize/` with alice's session
/// cookie, and `appflip flip` exchanges it at django's `/o/token/`. The django fixture mirrors
/// `AppFlipOAuthTests/DjangoInteropTests` (test targets cannot import each other).
@Suite struct DjangoFlipInteropTests {
    static let repositoryRoot: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    static let clientID = "appflip-flip-interop-client"
    static let clientSecret = "flip-interop-secret-0123456789abcdef"
    static let password = "flip-interop-password-42"

    @Test("appflip flip through appflipd to django-oauth-toolkit's /o/authorize/ and /o/token/", .timeLimit(.minutes(5)))
    func flipAgainstDjango() async throws {
        let python = try Self.setUpVenv()
        try await Self.withDjango(python: python) { base in
            let session = try await Self.signIn(base)
            let handler: JSONValue = .object([
                "appflip": .object([
                    "clientIDs": .array([.string(Self.clientID)]),
                    "authorization": .object([
                        "remote": .object([
                            "authorizeURL": .string("\(base)/o/authorize/"),
                            "credential": .object(["cookie": .string(session)]),
                            "timeoutSeconds": .number(45),
                        ])
                    ]),
                    // Generous: tests run in parallel on 2 loaded cores.
                    "timeoutSeconds": .number(60),
                ])
            ])
            let state = "django+interop &state=%41 😀"
            try await PartnerDaemon.run(handler: handler) { daemon in
                let outcome = try await TestCommand.run("appflip", [
                    "flip", "--socket", daemon.socketPath, "--link", PartnerDaemon.partnerLink, "--client-id", Self.clientID,
                    "--scope", "profile", "--redirect-bundle", "com.google.Chromecast.dev", "--sandbox", "--state", state,
                    "--token-url", "\(base)/o/token/", "--client-secret", Self.clientSecret, "--timeout", "90", "--json",
                ])
                #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
                let report = try JSONDecoder().decode(FlipCommandTests.Report.self, from: Data(outcome.standardOutput.utf8))
                #expect(report.failure == nil, "\(report.failure ?? "")")
                // Exit 0 with result "code" means the result link carried a code and this state byte for byte.
                #expect(report.result == "code")
                #expect(report.state == state)
                #expect(report.steps.map(\.status) == ["ok", "ok", "ok", "ok", "ok"])
                let tokens = try #require(report.tokens, "no token exchange at django's /o/token/")
                #expect(tokens.tokenType == "Bearer")
                #expect(tokens.refreshTokenIssued)
                #expect(tokens.violations == [])
                #expect(report.refreshed != nil, "django's refresh_token grant did not answer")
                #expect(!outcome.standardOutput.contains(session), "the session cookie reached the output")
            }
        }
    }

    // MARK: - The django-oauth-toolkit process

    /// Runs `scripts/django-oauth/setup.sh` (bounded) and returns the venv's python.
    static func setUpVenv() throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-django-setup-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: log) }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["\(repositoryRoot)/scripts/django-oauth/setup.sh", "\(repositoryRoot)/.build/django-venv"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let deadline = ContinuousClock.now + .seconds(600)
        while process.isRunning && ContinuousClock.now < deadline { usleep(100_000) }
        if process.isRunning {
            stop(process)
            throw TestFailure("scripts/django-oauth/setup.sh did not finish within 600 s")
        }
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0, let python = stdout.split(separator: "\n").last.map(String.init) else {
            let errors = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw TestFailure("scripts/django-oauth/setup.sh failed (exit \(process.terminationStatus)):\n\(errors)")
        }
        return python
    }

    /// Starts serve.py on an ephemeral port, runs `body` with its base URL, then kills it by PID.
    static func withDjango(python: String, _ body: @Sendable (String) async throws -> Void) async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-django-flip-\(UUID())")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let portFile = state.appendingPathComponent("port")
        let errors = state.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            ["\(repositoryRoot)/scripts/django-oauth/serve.py", "--state", state.path, "--port-file", portFile.path,
             "--client-id", clientID, "--client-secret", clientSecret, "--username", "alice", "--password", password,
             "--lifetime", "300"]
            + AppFlipRedirectURI.all.flatMap { ["--redirect-uri", $0.string] }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        defer { stop(process) }

        var port: Int?
        for _ in 0..<360 where port == nil && process.isRunning {
            port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if port == nil { try await Task.sleep(for: .milliseconds(250)) }
        }
        guard let port else {
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw TestFailure("django-oauth-toolkit did not start listening within 90 s:\n\(log)")
        }
        try await body("http://127.0.0.1:\(port)")
    }

    /// Signs alice in through Django's login form and returns the `sessionid=…` cookie.
    static func signIn(_ base: String) async throws -> String {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            let session = try await signIn(base, with: client)
            try await client.shutdown()
            return session
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private static func signIn(_ base: String, with client: HTTPClient) async throws -> String {
        let form = try await client.execute(HTTPClientRequest(url: "\(base)/accounts/login/"), timeout: .seconds(30))
        let page = String(buffer: try await form.body.collect(upTo: 1 << 20))
        let csrfCookie = try #require(cookie(named: "csrftoken", in: form), "no csrftoken cookie")
        let marker = "name=\"csrfmiddlewaretoken\" value=\""
        let start = try #require(page.range(of: marker), "no csrfmiddlewaretoken in the login form").upperBound
        let token = String(page[start...].prefix { $0 != "\"" })

        var request = HTTPClientRequest(url: "\(base)/accounts/login/")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Cookie", value: csrfCookie)
        let fields = [("csrfmiddlewaretoken", token), ("username", "alice"), ("password", password)]
        request.body = .bytes(ByteBuffer(string: fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
            .joined(separator: "&")))
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        #expect(response.status == .found, "login failed: HTTP \(response.status)")
        return try #require(cookie(named: "sessionid", in: response), "the login set no sessionid cookie")
    }

    static func cookie(named name: String, in response: HTTPClientResponse) -> String? {
        response.headers["Set-Cookie"].lazy
            .compactMap { $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } }
            .first { $0.hasPrefix(name + "=") }
    }

    /// SIGTERM by PID, then SIGKILL after 5 s.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning && ContinuousClock.now < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
