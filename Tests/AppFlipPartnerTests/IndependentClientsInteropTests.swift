import AppFlipConfiguration
import AppFlipCore
import AppFlipHTTPClient
import AppFlipOAuth
import AppFlipTestSupport
import AppFlipTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import ThirdPartyFixtures

/// authlib and requests-oauthlib/oauthlib (from PyPI, pinned in `Tests/ThirdPartyFixtures/oauth-clients/setup.sh`) against the
/// embedded server of a real appflipd: App Flip codes obtained through the daemon as the Google app gets
/// them, PKCE S256 codes from each library's own authorization URL, then exchange, refresh, RFC 7009
/// revocation and authlib's RFC 8414 metadata validation, under each rotation policy.
@Suite(.serialized, .slow) struct IndependentClientsInteropTests {
    static let opa = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

    static func configuration(_ rotation: RefreshTokenRotation) -> OAuthServerConfiguration {
        var configuration = TestPartner.oauthConfiguration
        configuration.refreshTokenRotation = rotation
        return configuration
    }

    /// A code from a flip through the daemon: the partner app's result URL, delivered to the Google app.
    static func flipCode(_ google: TestGoogleApp, state: String) async throws -> String {
        _ = try await google.flip(state: state, redirectURI: opa)
        let url = try #require(google.urls.last)
        guard case .code(let code)? = FlipResultChecker(redirectURI: opa, state: state).check(url).outcome else {
            throw InteropFailure("the flip returned no code")
        }
        return code
    }

    /// Follows a library's authorization URL as the signed-in user, the way the partner app does at step 3,
    /// and returns the Location it redirected to (the callback URL holding the code).
    static func callback(_ url: String, daemon: TestDaemon) async throws -> String {
        guard case .cookie(let cookie)? = daemon.oauthServer!.sessionCredential(for: "alice") else {
            throw InteropFailure("no session for alice")
        }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Cookie", value: cookie)
        let response = try await daemon.httpClient!.execute(request, timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 16)
        guard response.status == .found, let location = response.headers.first(name: "Location"), location.contains("code=") else {
            throw InteropFailure("authorization URL answered HTTP \(response.status.code) without a code")
        }
        return location
    }

    @Test(
        "authlib and requests-oauthlib: PKCE S256 and App Flip codes, exchange, refresh, revoke, metadata",
        arguments: RefreshTokenRotation.allCases
    )
    func clients(rotation: RefreshTokenRotation) async throws {
        try await withTestDaemon(apps: [TestPartner.app()], oauth: Self.configuration(rotation)) { daemon in
            let base = try await daemon.oauthServer!.baseURL()
            let google = try await TestGoogleApp.register(on: daemon)
            let flipCodes = [try await Self.flipCode(google, state: "authlib-flip"), try await Self.flipCode(google, state: "oauthlib-flip")]
            await google.close()

            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-interop-\(UUID())")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let stateFile = scratch.appendingPathComponent("pkce.json").path
            let urls = try await PythonOAuthClients.run(
                phase: "authorize",
                input: ["base": base, "clientID": TestPartner.clientID, "redirectURI": Self.opa, "stateFile": stateFile]
            )
            let authlibURL = try #require(urls["authlib"] as? String)
            let oauthlibURL = try #require(urls["oauthlib"] as? String)
            #expect(authlibURL.contains("code_challenge_method=S256") && oauthlibURL.contains("code_challenge_method=S256"))

            let result = try await PythonOAuthClients.run(
                phase: "run",
                input: [
                    "base": base, "clientID": TestPartner.clientID, "clientSecret": TestPartner.clientSecret, "redirectURI": Self.opa,
                    "appFlipRedirectURI": Self.opa, "stateFile": stateFile, "rotation": rotation.rawValue,
                    "authlibCallback": try await Self.callback(authlibURL, daemon: daemon),
                    "oauthlibCallback": try await Self.callback(oauthlibURL, daemon: daemon), "flipCodes": flipCodes,
                ]
            )
            let text = String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self)
            for secret in flipCodes + [TestPartner.clientSecret] { #expect(!text.contains(secret)) }

            #expect(result["metadataStatus"] as? Int == 200)
            #expect(result["metadataValid"] as? Bool == true, "\(result["metadataError"] ?? "")")
            #expect(result["issuerMatches"] as? Bool == true)
            #expect(result["metadataContentType"] as? String == "application/json;charset=UTF-8")
            let wrongVerifier = try #require(result["pkceWrongVerifier"] as? [String: Any], "\(text)")
            #expect(wrongVerifier["status"] as? Int == 400)
            #expect(wrongVerifier["error"] as? String == "invalid_grant")
            for library in ["authlib", "oauthlib"] {
                let run = try #require(result[library] as? [String: Any], "\(library): \(text)")
                for exchange in ["pkceExchange", "flipExchange", "refresh"] {
                    let shape = try #require(run[exchange] as? [String: Any], "\(library) \(exchange): \(text)")
                    #expect(shape["tokenType"] as? String == "Bearer", "\(library) \(exchange): \(shape)")
                    #expect(shape["accessOpaque"] as? Bool == true, "\(library) \(exchange)")
                    #expect(shape["refreshIssued"] as? Bool == true, "\(library) \(exchange)")
                    #expect(shape["expiresIn"] as? Int == 3600, "\(library) \(exchange)")
                }
                #expect(run["userinfoBefore"] as? Int == 200, "\(library)")
                #expect(run["newAccessToken"] as? Bool == true, "\(library)")
                #expect(run["refreshRotated"] as? Bool == (rotation != .off), "\(library)")
                let previous = try #require(run["previousRefresh"] as? [String: Any], "\(library): \(text)")
                if rotation == .strict {
                    #expect(previous["status"] as? Int == 400, "\(library)")
                    #expect(previous["error"] as? String == "invalid_grant", "\(library)")
                } else {
                    #expect(previous["status"] as? Int == 200, "\(library): \(previous)")
                }
                #expect(run["userinfoBeforeRevoke"] as? Int == 200, "\(library)")
                #expect(run["revokeStatus"] as? Int == 200, "\(library)")
                let afterRevoke = try #require(run["refreshAfterRevoke"] as? [String: Any], "\(library): \(text)")
                #expect(afterRevoke["status"] as? Int == 400, "\(library)")
                #expect(afterRevoke["error"] as? String == "invalid_grant", "\(library)")
                #expect(run["userinfoAfterRevoke"] as? Int == 401, "\(library)")
                #expect(run["unknownTokenRevokeStatus"] as? Int == 200, "\(library)")
            }
        }
    }
}
