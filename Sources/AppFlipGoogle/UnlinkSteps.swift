import AppFlipCore

/// Steps 6 and 7 (`--unlink`), the same after either flip: what Google does when the user unlinks — revoke
/// at the partner's revocation endpoint — then proof that it worked: the refresh token gets
/// `invalid_grant`, the access tokens no longer open the resource. Nothing here puts a token in the report:
/// fingerprints only.
struct UnlinkSteps: Sendable {
    /// Where to revoke and what to check.
    var unlink: FlipRunner.Unlink
    /// The token endpoint the tokens came from, with the client's authentication.
    var client: TokenEndpointClient

    /// Steps 6 and 7 for the tokens step 5 issued, oldest first.
    func run(issued: [TokenResponse], into report: inout FlipReport) async {
        let started = WallClock.now()
        guard let revocationURL = await revocationEndpoint(started: started, into: &report) else { return }
        // Google holds the refresh token of a linked account; that is what it revokes.
        let refreshToken = issued.last?.refreshToken ?? issued.first?.refreshToken
        guard let token = refreshToken ?? issued.last?.accessToken else { return }
        let hint = refreshToken != nil ? "refresh_token" : "access_token"
        do {
            try await client.revoke(token: token, tokenTypeHint: hint, at: revocationURL)
        } catch {
            report.fail(.tokensRevoked, milliseconds: WallClock.since(started), "\(revocationURL): \(error)", exitStatus: 1)
            return
        }
        report.record(
            .tokensRevoked,
            .ok,
            milliseconds: WallClock.since(started),
            "\(revocationURL) answered 200 to the \(hint) sha256:\(Fingerprint.of(token))"
        )
        await confirm(refreshToken: refreshToken, accessTokens: issued.map(\.accessToken), into: &report)
    }

    /// Step 6's endpoint: ``FlipRunner/Unlink/revocationURL``, else the `revocation_endpoint` of the RFC 8414
    /// metadata at the token endpoint's origin; nil once step 6 has failed for want of one.
    private func revocationEndpoint(started: Double, into report: inout FlipReport) async -> String? {
        if let given = unlink.revocationURL { return given }
        let metadataURL = TokenEndpointClient.metadataURL(forTokenURL: client.tokenURL)
        let reason: String
        do {
            if let advertised = try await client.authorizationServerMetadata()["revocation_endpoint"] { return advertised }
            reason = "\(metadataURL) names no revocation_endpoint; give --revoke-url"
        } catch {
            reason = "no revocation endpoint: \(metadataURL): \(error); give --revoke-url"
        }
        report.fail(.tokensRevoked, milliseconds: WallClock.since(started), reason, exitStatus: 1)
        return nil
    }

    /// Step 7: the revoked refresh token no longer refreshes, and no access token of the flow opens the
    /// resource. One still alive fails the step, exit 2.
    private func confirm(refreshToken: String?, accessTokens: [String], into report: inout FlipReport) async {
        let confirming = WallClock.now()
        var findings = Findings()
        if let refreshToken { await findings.refresh(refreshToken, at: client) }
        if let resourceURL = unlink.resourceURL {
            for accessToken in Set(accessTokens).sorted() { await findings.resource(resourceURL, accessToken: accessToken, at: client) }
        }
        if findings.alive.isEmpty {
            report.record(
                .revocationConfirmed,
                .ok,
                milliseconds: WallClock.since(confirming),
                findings.dead.isEmpty ? "nothing to check" : findings.dead.joined(separator: ", ")
            )
            report.unlinked = true
        } else {
            report.fail(
                .revocationConfirmed,
                milliseconds: WallClock.since(confirming),
                "the revocation did not take: " + findings.alive.joined(separator: "; "),
                exitStatus: 2
            )
        }
    }

    /// What step 7 found, in words: each token shown dead, and each still alive (or not shown dead).
    private struct Findings {
        var dead: [String] = []
        var alive: [String] = []

        /// The revoked refresh token must get HTTP 400 `invalid_grant` (RFC 6749 §5.2).
        mutating func refresh(_ refreshToken: String, at client: TokenEndpointClient) async {
            do {
                _ = try await client.refresh(refreshToken: refreshToken)
                alive.append("the revoked refresh token sha256:\(Fingerprint.of(refreshToken)) still refreshes")
            } catch .endpoint(status: 400, error: "invalid_grant"?, description: _) {
                dead.append("refresh token: invalid_grant")
            } catch {
                alive.append("refreshing with the revoked refresh token answered \(error), not HTTP 400 invalid_grant")
            }
        }

        /// An access token of the revoked grant must no longer get a 2xx from the resource.
        mutating func resource(_ resourceURL: String, accessToken: String, at client: TokenEndpointClient) async {
            let fingerprint = "sha256:" + Fingerprint.of(accessToken)
            do {
                let status = try await client.resourceStatus(url: resourceURL, accessToken: accessToken)
                if (200..<300).contains(status) {
                    alive.append("access token \(fingerprint) still opens \(resourceURL) (HTTP \(status))")
                } else {
                    dead.append("access \(fingerprint): HTTP \(status)")
                }
            } catch {
                alive.append("\(resourceURL) could not be checked: \(error)")
            }
        }
    }
}
