import AppFlipCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// django-oauth-toolkit 3.4.1 on 127.0.0.1: the real third-party OAuth2 server of the interop tests, with
/// one confidential client and one user. `scripts/django-oauth/setup.sh` creates `.build/django-venv` on
/// first use (pip from PyPI).
public struct DjangoOAuthServer: Sendable {
    /// `http://127.0.0.1:PORT`; `/o/authorize/` and `/o/token/` are below it.
    public let baseURL: String
    public let username: String
    public let password: String

    static let repositoryRoot: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    /// Sets up the venv, starts `serve.py` on an ephemeral port with the client registered for
    /// `redirectURIs`, runs `body`, then stops the server by PID. The server exits by itself after
    /// `lifetimeSeconds` in case this process dies first. `defaults` keeps django-oauth-toolkit's own
    /// settings (PKCE required, 60-second codes) instead of the interop settings (`serve.py --defaults`).
    public static func run(
        clientID: String,
        clientSecret: String,
        secondClient: (id: String, secret: String)? = nil,
        username: String = "alice",
        password: String,
        redirectURIs: [String],
        lifetimeSeconds: Int,
        defaults: Bool = false,
        _ body: @Sendable (DjangoOAuthServer) async throws -> Void
    ) async throws {
        let python = try await venv.value
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-django-\(UUID())")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let portFile = state.appendingPathComponent("port")
        let errors = state.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [
                "\(repositoryRoot)/scripts/django-oauth/serve.py", "--state", state.path, "--port-file", portFile.path,
                "--client-id", clientID, "--client-secret", clientSecret, "--username", username, "--password", password,
                "--lifetime", "\(lifetimeSeconds)",
            ]
            + redirectURIs.flatMap { ["--redirect-uri", $0] } + (defaults ? ["--defaults"] : [])
            + (secondClient.map { ["--second-client-id", $0.id, "--second-client-secret", $0.secret] } ?? [])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        do {
            let port = try await listeningPort(of: process, portFile: portFile, errors: errors)
            try await body(DjangoOAuthServer(baseURL: "http://127.0.0.1:\(port)", username: username, password: password))
            await stop(process)
        } catch {
            await stop(process)
            throw error
        }
    }

    /// The port a fixture server (`serve.py`, a matrix server) writes to `portFile` once it listens.
    static func listeningPort(of process: Process, portFile: URL, errors: URL, name: String = "django-oauth-toolkit") async throws -> Int {
        // Generous: Django starts in seconds, but the tests run in parallel on two loaded cores.
        for _ in 0..<360 where process.isRunning {
            let port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if let port { return port }
            try await Task.sleep(for: .milliseconds(250))
        }
        let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        throw DjangoFixtureError("\(name) did not start listening within 90 s:\n\(log)")
    }

    /// Signs the user in through Django's login form and returns the `sessionid=…` cookie.
    public func signIn() async throws -> String {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            let session = try await signIn(with: client)
            try await client.shutdown()
            return session
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func signIn(with client: HTTPClient) async throws -> String {
        let form = try await client.execute(HTTPClientRequest(url: "\(baseURL)/accounts/login/"), timeout: .seconds(30))
        let page = String(buffer: try await form.body.collect(upTo: 1 << 20))
        guard let csrfCookie = Self.cookie(named: "csrftoken", in: form) else { throw DjangoFixtureError("no csrftoken cookie") }
        let marker = "name=\"csrfmiddlewaretoken\" value=\""
        guard let start = page.range(of: marker)?.upperBound else { throw DjangoFixtureError("no csrfmiddlewaretoken in the login form") }
        let token = String(page[start...].prefix { $0 != "\"" })

        var request = HTTPClientRequest(url: "\(baseURL)/accounts/login/")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Cookie", value: csrfCookie)
        request.body = .bytes(
            ByteBuffer(
                string: FormEncoding.encode([
                    ("csrfmiddlewaretoken", token), ("username", username), ("password", password),
                ])
            )
        )
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .found else { throw DjangoFixtureError("login failed: HTTP \(response.status)") }
        guard let session = Self.cookie(named: "sessionid", in: response) else { throw DjangoFixtureError("the login set no sessionid cookie") }
        return session
    }

    static func cookie(named name: String, in response: HTTPClientResponse) -> String? {
        response.headers["Set-Cookie"].lazy
            .compactMap { $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } }
            .first { $0.hasPrefix(name + "=") }
    }

    /// The venv's python, set up once per process: both interop suites may start at the same moment.
    private static let venv = Task { try await setUpVenv() }

    /// Runs `scripts/django-oauth/setup.sh` through ``PythonVenv`` and returns the venv's python.
    static func setUpVenv() async throws -> String {
        try await PythonVenv.setUp(script: "scripts/django-oauth/setup.sh", venv: ".build/django-venv")
    }

    /// SIGTERM by PID, then SIGKILL after 5 s; waits as a task (`Process.exit(within:)`).
    static func stop(_ process: Process) async {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if await !process.exit(within: .seconds(5)) { kill(process.processIdentifier, SIGKILL) }
        _ = await process.exit(within: .seconds(5))
    }
}
