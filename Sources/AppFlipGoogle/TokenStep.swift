import AppFlipCore
import AsyncHTTPClient
import Logging

/// Step 5 of either flip, as Google's server does it once the Google app holds a code: exchange it at the
/// partner's token endpoint with the flip's `redirect_uri`, refresh once, and hold both answers to Google's
/// account-linking rules; then, with `--unlink`, steps 6 and 7 (``UnlinkSteps``). iOS and Android differ
/// only in how the code reached the Google app (steps 1 to 4), so both runners end here.
struct TokenStep: Sendable {
    /// nil: stop after the result is checked (`--no-exchange`).
    var endpoint: TokenEndpoint?
    /// The `client_id` the flip sent.
    var clientID: String
    /// The `redirect_uri` the flip sent, which the exchange must repeat (RFC 6749 §4.1.3).
    var redirectURI: String
    /// Refresh once after the exchange, as Google does before the access token expires.
    var refreshes: Bool
    /// After linking, unlink as Google does.
    var unlink: FlipRunner.Unlink?

    /// Records step 5 for `code` (skipped without an endpoint or an HTTP client), then steps 6 and 7 with
    /// ``unlink`` once step 5 passed.
    func run(code: String, httpClient: HTTPClient?, logger: Logger, into report: inout FlipReport) async {
        guard let endpoint, let httpClient else {
            report.record(.tokensExchanged, .skipped, milliseconds: nil, "--no-exchange")
            return
        }
        let client = TokenEndpointClient(
            tokenURL: endpoint.url,
            clientID: clientID,
            clientSecret: endpoint.clientSecret,
            httpClient: httpClient,
            logger: logger
        )
        guard let issued = await exchange(code, at: client, into: &report) else { return }
        if let unlink {
            await UnlinkSteps(unlink: unlink, client: client).run(issued: issued, into: &report)
        }
    }

    /// The exchange and the refresh, held to Google's rules: every token response issued, oldest first, or
    /// nil once step 5 has failed (exit 1 when the endpoint refused or failed, 2 when an answer broke a rule).
    private func exchange(_ code: String, at client: TokenEndpointClient, into report: inout FlipReport) async -> [TokenResponse]? {
        let started = WallClock.now()
        var issued: [TokenResponse] = []
        do {
            let tokens = try await client.exchange(code: code, redirectURI: redirectURI)
            issued.append(tokens)
            report.tokens = tokens.report
            if refreshes, let refreshToken = tokens.refreshToken {
                let refreshed = try await client.refresh(refreshToken: refreshToken)
                issued.append(refreshed)
                report.refreshed = refreshed.refreshReport
            }
        } catch {
            report.fail(.tokensExchanged, milliseconds: WallClock.since(started), "\(client.tokenURL): \(error)", exitStatus: 1)
            return nil
        }
        let broken = (report.tokens?.violations ?? []) + (report.refreshed?.violations.map { "refresh: \($0)" } ?? [])
        guard broken.isEmpty else {
            report.fail(
                .tokensExchanged,
                milliseconds: WallClock.since(started),
                "the token response breaks Google's account-linking rules: " + broken.joined(separator: "; "),
                exitStatus: 2
            )
            return nil
        }
        report.record(.tokensExchanged, .ok, milliseconds: WallClock.since(started), report.tokens?.summary)
        return issued
    }
}
