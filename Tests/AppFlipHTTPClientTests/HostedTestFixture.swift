import AppFlipCore
import AppFlipHTTPClient
import Foundation
import NIOHTTP1

/// One test CA, a directory with its PEM, and the files and answers the hosting tests serve.
struct HostedTestFixture: Sendable {
    static let appID = "ABCDE12345.com.example.partner"
    static let file = Array(
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.partner"],"components":[{"/":"/flip/*"},{"/":"/help/*","exclude":true}]}]}}"#
            .utf8
    )

    let authority: TestCertificateAuthority
    let directory: URL
    let caFile: String

    init() throws {
        authority = try TestCertificateAuthority()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-hosted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        caFile = try authority.writeCertificate(in: directory)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// What the CDN-shaped test server answers for each test domain, under `/a/v1/`.
    static func cdnRoutes(_ path: String) -> TestHTTPResponse? {
        switch path {
        case "/a/v1/good.example", "/.well-known/apple-app-site-association":
            .file(file)
        case "/a/v1/charset.example": .file(file, contentType: "Application/JSON; charset=utf-8")
        case "/a/v1/redirect.example":
            .whole(.movedPermanently, [("Location", "https://www.redirect.example/.well-known/apple-app-site-association")], [])
        case "/a/v1/html.example": .file(file, contentType: "text/html")
        case "/a/v1/untyped.example": .whole(.ok, [], file)
        case "/a/v1/large.example": .file(Array(repeating: UInt8(ascii: " "), count: 129 * 1024))
        case "/a/v1/endless.example": .streamed(chunk: Array(repeating: UInt8(ascii: " "), count: 16 * 1024), chunks: 64)
        // A catch-all before an exclusion: it loads, with a warning that the exclusion is never reached.
        case "/a/v1/warned.example":
            .file(
                Array(
                    #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.partner"],"components":[{"/":"*"},{"/":"/help/*","exclude":true}]}]}}"#
                        .utf8
                )
            )
        case "/a/v1/broken.example": .file(Array(#"{"applinks":{"details":[{"appIDs":["A.b"],}]}}"#.utf8))
        case "/a/v1/silent.example": .silence
        default: nil
        }
    }

    /// Runs `body` with a fixture and the CDN-shaped server (certificate for localhost).
    static func withCDNServer(_ body: (HostedTestFixture, TestHTTPSServer) async throws -> Void) async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let identity = try fixture.authority.serverIdentity(for: ["localhost"])
        try await TestHTTPSServer.with(identity: identity, routes: HostedTestFixture.cdnRoutes) { server in
            try await body(fixture, server)
        }
    }

    /// `member` of each object in the JSON report's `list` (`checks` of `aasa check` and `assetlinks check`,
    /// `results` of `audit`), of those whose `status` is `status` when one is given.
    static func column(_ output: String, _ list: String, _ member: String, status: String? = nil) throws -> [String] {
        guard case .object(let report) = try JSONValue(parsing: Array(output.utf8)), case .array(let items)? = report[list] else { return [] }
        return items.compactMap { item in
            guard case .object(let fields) = item, status.map({ fields["status"] == .string($0) }) ?? true,
                case .string(let value)? = fields[member]
            else { return nil }
            return value
        }
    }

    /// Fetch options for the CDN-shaped server: trusting only this test's CA. The timeout leaves the TLS
    /// handshake its full 5 s (a fetch connects within half its timeout, at most 5 s), which a handshake
    /// under ThreadSanitizer on a loaded machine needs; a test of a timeout passes its own.
    func cdnOptions(_ server: TestHTTPSServer, timeout: Duration = .seconds(12)) -> HostedFetchOptions {
        HostedFetchOptions(source: .cdn(base: server.cdnBase), trust: .caFile(caFile), timeout: timeout)
    }
}
