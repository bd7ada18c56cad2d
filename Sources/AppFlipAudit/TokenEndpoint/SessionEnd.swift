import AppFlipCore
import AppFlipHTTPClient
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// `token.refresh-outlives-session`: Google refreshes for as long as the account stays linked, and a user
/// signing out of the partner's web site has not unlinked. The check links with a code of the session it
/// will end (a second credential given for it, `--sign-out-session-file`, or else the audit's own, last),
/// shows the refresh token working, ends the session at `--sign-out-url`, shows the session ended (the
/// authorization endpoint no longer gives its credential a code), and refreshes: the refresh must work.
/// A sign-out that ends nothing is the audit's input, and the check could not run.
extension TokenEndpointAudit {
    func outlivesSession(_ authorization: AuthorizationEndpointAudit, _ google: Client) async throws(AuditUnreachable) {
        guard let signOut = authorization.target.signOut else { return }
        let check = CheckSpec.tokenRefreshOutlivesSession
        let ledger = context.ledger
        var session = authorization
        if let second = signOut.session { session.target.credential = second }
        let which = signOut.session == nil ? "the audit's sign-in credential" : "the second sign-in credential (--sign-out-session-file)"
        let state = "appflip-audit-session-" + String(UInt64.random(in: .min ... .max), radix: 36)
        let linked = try await session.authorize(
            clientID: session.target.clientID,
            redirectURI: redirectURI.string,
            state: state,
            for: "token.refresh-outlives-session: a code with \(which)"
        )
        var evidence = ["a code with \(which): \(linked)"]
        if case .couldNotRun(let cause, let why) = Blame.signIn(linked) {
            ledger.set(.signedOut, .couldNotRun(cause, "\(which): \(why)"))
            ledger.record(check, .note(evidence))
            return
        }
        guard let code = session.code(linked, redirectURI: redirectURI.string, state: state) else {
            ledger.set(.signedOut, .nothingToJudge("\(which) got no code: \(linked) (authorize.code judges the endpoint's codes)"))
            return
        }
        session.register(code, from: "token.refresh-outlives-session's request")
        let tokens = try await exchange(code, google, for: "token.refresh-outlives-session: its own code")
        evidence.append("exchange of its own \(Self.redacted("code", code)): \(tokens)")
        guard tokens.issuedTokens, let original = tokens.refreshToken else {
            ledger.set(.signedOut, .nothingToJudge("its own code got \(tokens.summary), no refresh token (token.exchange, token.refresh-issued)"))
            ledger.record(check, .note(evidence))
            return
        }
        let before = try await refresh(original, google, for: "token.refresh-outlives-session: its refresh token before the session ends")
        evidence.append("before the session ends, its refresh token: \(before)")
        guard let usable = try await usableRefreshToken(after: before, presented: original, google, &evidence, for: check) else {
            ledger.set(
                .signedOut,
                .nothingToJudge("its refresh token could not be shown working before the session ended (token.refresh judges refreshing)")
            )
            ledger.record(check, .note(evidence))
            return
        }
        let ended = try await signOutRequest(signOut, credential: session.target.credential)
        evidence.append("\(signOut.method) \(LocationText.shown(signOut.url)) with \(which): #\(ended.id) HTTP \(ended.status)")
        let afterState = state + "-after"
        let after = try await session.authorize(
            clientID: session.target.clientID,
            redirectURI: redirectURI.string,
            state: afterState,
            for: "token.refresh-outlives-session: the ended session asks for a code"
        )
        evidence.append("the ended session asks for a code: \(after)")
        let stillCode = session.code(after, redirectURI: redirectURI.string, state: afterState)
        if let stillCode { session.register(stillCode, from: "token.refresh-outlives-session's request after the sign-out") }
        switch Blame.signOut(after, code: stillCode, signOut: "\(signOut.method) \(LocationText.shown(signOut.url)) (HTTP \(ended.status))") {
        case .met:
            ledger.establish(.signedOut)
        case .couldNotRun(let cause, let why):
            ledger.set(.signedOut, .couldNotRun(cause, why))
            ledger.record(check, .note(evidence))
            return
        case .broke, .brokeEarlier:
            return
        }
        let refreshed = try await refresh(usable.token, google, for: "token.refresh-outlives-session: its refresh token once the session ended")
        evidence.append("once the session ended, its refresh token: \(refreshed)")
        ledger.record(
            check,
            refreshed.issuedTokens
                ? .held("the refresh token kept refreshing once the session that linked it ended", evidence: evidence)
                : .fail(
                    "once the session that linked ended, its refresh token got \(refreshed.summary): a user who signs out of the web is unlinked",
                    evidence: evidence
                )
        )
    }

    /// The sign-out request, with `credential`, recorded; an empty form for a POST.
    private func signOutRequest(
        _ signOut: AuthorizationEndpointTarget.SignOut,
        credential: SessionCredential?
    ) async throws(AuditUnreachable) -> (id: Int, status: UInt) {
        var request = HTTPClientRequest(url: signOut.url)
        request.method = signOut.method == "GET" ? .GET : .POST
        credential?.apply(to: &request.headers)
        if request.method == .POST {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer())
        }
        let sending = ExchangeRecorder.Sending(
            endpoint: .signOut,
            purpose: "token.refresh-outlives-session: end the session",
            method: signOut.method,
            url: signOut.url,
            headers: request.headers
        )
        let httpClient = httpClient
        let bounds = bounds
        let send = { try await httpClient.exchange(request, bounds: bounds, endpoint: "the sign-out URL \(signOut.url)") }
        let outcome = try await context.exchanges.perform(sending, exchange: send) { id, response in (nil, response.status.code) }
        return (outcome.id, outcome.value)
    }
}
