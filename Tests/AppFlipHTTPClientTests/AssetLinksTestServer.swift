import AppFlipCore
import AppFlipHTTPClient
import NIOHTTP1
import Synchronization

/// A statement list served at `https://localhost:PORT/.well-known/assetlinks.json` by a test HTTPS server, one
/// server per variant (every variant lives at the same path), with an include at `/include.json`.
enum AssetLinksTestServer {
    static let package = "com.example.partner"
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let relation = #""relation":["delegate_permission/common.handle_all_urls"]"#

    /// A statement delegating links to `package` signed by `fingerprint`.
    static func statement(package: String = package, fingerprint: String = fingerprint) -> String {
        #"{\#(relation),"target":{"namespace":"android_app","package_name":"\#(package)","sha256_cert_fingerprints":["\#(fingerprint)"]}}"#
    }

    static let file = Array("[\(statement())]".utf8)

    /// The good file with `padding` spaces after its `[`: the same statement list, `padding` bytes longer.
    static func padded(_ padding: Int) -> [UInt8] {
        Array("[".utf8) + Array(repeating: UInt8(ascii: " "), count: padding) + file.dropFirst()
    }

    /// The variants, each what the server answers at `/.well-known/assetlinks.json`.
    enum Variant: String, CaseIterable, Sendable {
        case good, movedPermanently, temporaryRedirect, notFound, htmlSoft404, textPlain, oversized, oversizedStreamed
        case include, mistakeBeside, nullBeside, otherFingerprint
        /// The good file padded past 1 MiB, sent chunked: Android 12+'s StatementService reads it whole.
        case largeChunked
        /// The good file padded past appflip's 4 MiB bound, sent chunked.
        case pastBoundChunked
        /// The good file padded past 1 MiB, with its Content-Length.
        case largeDeclared

        func response(port: Int) -> TestHTTPResponse {
            switch self {
            case .good: .file(file)
            case .movedPermanently: .whole(.movedPermanently, [("Location", "https://www.localhost/.well-known/assetlinks.json")], [])
            case .temporaryRedirect: .whole(.temporaryRedirect, [("Location", "https://localhost:\(port)/elsewhere.json")], [])
            case .notFound: .whole(.notFound, [("Content-Type", "text/html")], Array("<html>not found</html>".utf8))
            case .htmlSoft404: .file(Array("<!doctype html><html><body>Welcome</body></html>".utf8), contentType: "text/html; charset=utf-8")
            case .textPlain: .file(file, contentType: "text/plain")
            case .oversized: .file(Array(repeating: UInt8(ascii: " "), count: 1024 * 1024 + 1))
            case .oversizedStreamed: .streamed(chunk: Array(repeating: UInt8(ascii: " "), count: 16 * 1024), chunks: 80)
            case .include: .file(Array(#"[{"include":"https://localhost:\#(port)/include.json"}]"#.utf8))
            case .mistakeBeside:
                .file(Array("[\(statement()),\(statement(package: "com.example.other", fingerprint: fingerprint.lowercased()))]".utf8))
            case .nullBeside:
                .file(Array(#"[\#(statement()),{\#(relation),"target":{"namespace":"web","site":"https://localhost"},"note":null}]"#.utf8))
            case .otherFingerprint: .file(Array("[\(statement(fingerprint: String(repeating: "AB:", count: 31) + "AB"))]".utf8))
            case .largeChunked: .chunked(AssetLinksTestServer.padded(1024 * 1024 + 200 * 1024))
            case .pastBoundChunked: .chunked(AssetLinksTestServer.padded(HostingPolicy.assetLinksReadLimit + 64 * 1024))
            case .largeDeclared: .file(AssetLinksTestServer.padded(1024 * 1024 + 200 * 1024))
            }
        }
    }

    /// Runs `body` with a server answering `variant`, its certificate for `names`.
    static func with<T>(
        _ variant: Variant,
        fixture: HostedTestFixture,
        names: [String] = ["localhost"],
        _ body: (TestHTTPSServer) async throws -> T
    ) async throws -> T {
        let port = Mutex(0)
        let routes: @Sendable (String) -> TestHTTPResponse? = { path in
            let current = port.withLock { $0 }
            switch path {
            case "/.well-known/assetlinks.json": return variant.response(port: current)
            case "/include.json": return .file(file)
            default: return nil
            }
        }
        return try await TestHTTPSServer.with(identity: try fixture.authority.serverIdentity(for: names), routes: routes) { server in
            port.withLock { $0 = server.port }
            return try await body(server)
        }
    }

    static func options(_ fixture: HostedTestFixture, _ server: TestHTTPSServer) -> HostedFetchOptions {
        HostedFetchOptions(source: .direct(port: server.port), trust: .caFile(fixture.caFile), timeout: .seconds(12))
    }
}
