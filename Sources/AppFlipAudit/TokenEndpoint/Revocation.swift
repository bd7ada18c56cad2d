import AppFlipCore
import NIOConcurrencyHelpers

/// RFC 7009, which Google follows when a user unlinks: `token.revoke` on grants of their own — a refresh
/// token revoked with each `token_type_hint` (`refresh_token`, the wrong `access_token`, none), shown
/// working right before; an access token revoked with its hint and with none — and `token.revoke-unknown`
/// with a token never issued.
extension TokenEndpointAudit {
    /// The `token.revoke` probes, one per hint and kind of token, each on its own grant; the resource's
    /// refusals of the revoked grants' access tokens are gathered in `revoked` for `token.resource-refusal`.
    func revocations(_ codes: any AuditCodeSource, _ google: Client, resourceWorks: Bool, into revoked: RevokedAccess) -> [Work] {
        guard target.revokeURL != nil else { return [] }
        let refreshHints: [String?] = ["refresh_token", nil, "access_token"]
        var work: [Work] = refreshHints.map { hint in
            {
                revoked.add(try await self.revokeRefreshToken(codes, google, hint: hint, resourceWorks: resourceWorks))
            }
        }
        if resourceWorks && target.resourceURL != nil {
            work += (["access_token", nil] as [String?]).map { hint in
                { revoked.add(try await self.revokeAccessToken(codes, google, hint: hint)) }
            }
        }
        return work
    }

    /// How a revocation request named its token's kind, for a reason line.
    private static func hinted(_ hint: String?) -> String {
        hint.map { "token_type_hint=\($0)" } ?? "no token_type_hint"
    }

    /// A refresh token of its own, shown usable, revoked with `hint`: it must stop refreshing (RFC 7009 §2.1;
    /// a wrong hint only widens the server's search); its access tokens should stop opening the resource.
    private func revokeRefreshToken(
        _ codes: any AuditCodeSource,
        _ google: Client,
        hint: String?,
        resourceWorks: Bool
    ) async throws(AuditUnreachable) -> [(String, ResourceAnswer)] {
        let check = CheckSpec.tokenRevoke
        guard let revokeURL = target.revokeURL, let tokens = try await ownTokens(codes, google, for: check), let original = tokens.refreshToken else {
            return []
        }
        let before = try await refresh(original, google, for: "token.revoke: its refresh token before revoking (\(Self.hinted(hint)))")
        var evidence = ["before revoking, its refresh token: \(before)"]
        guard let usable = try await usableRefreshToken(after: before, presented: original, google, &evidence, for: check) else {
            context.ledger.set(
                .refresh,
                .brokeRule(
                    .tokenRefresh,
                    "no refresh token of its own could be shown usable before revoking (token.refresh and token.refresh-chain judge refreshing)"
                ),
                for: check
            )
            context.ledger.record(check, .note(evidence))
            return []
        }
        var accessTokens: [String] = []
        for token in [tokens.accessToken, before.accessToken, usable.access].compactMap({ $0 }) where !accessTokens.contains(token) {
            accessTokens.append(token)
        }
        let sent = "the refresh token with \(Self.hinted(hint))"
        let revoked = try await revoke(usable.token, hint: hint, at: revokeURL, google, for: "token.revoke: \(sent)")
        evidence.append("POST \(revokeURL) token=\(Self.redacted("refresh_token", usable.token)), \(Self.hinted(hint)): \(revoked)")
        guard revoked.status == 200 else {
            context.ledger.record(
                check,
                .fail("revoking a valid refresh token with \(Self.hinted(hint)) got \(revoked.summary), not HTTP 200", evidence: evidence)
            )
            return []
        }
        let after = try await refresh(usable.token, google, for: "token.revoke: the refresh token revoked with \(Self.hinted(hint))")
        evidence.append("after revoking, the refresh token: \(after)")
        var refusals: [(String, ResourceAnswer)] = []
        var aliveAccess = 0
        if resourceWorks {
            for (index, access) in accessTokens.enumerated() {
                guard
                    let answer = try await resource(
                        access,
                        for: "token.revoke: access token \(index + 1) of the grant revoked with \(Self.hinted(hint))"
                    )
                else { continue }
                evidence.append("after revoking, access token \(index + 1) at the resource: \(answer)")
                if answer.opened { aliveAccess += 1 } else { refusals.append(("an access token of a revoked refresh token", answer)) }
            }
        }
        let finding: Finding
        if after.issuedTokens {
            finding = .fail(
                "the refresh token revoked with \(Self.hinted(hint)) still refreshes: a user who unlinks stays linked (RFC 7009 §2.1 MUST invalidate it\(hint == "access_token" ? ", and a wrong hint only widens the search" : ""))",
                evidence: evidence
            )
        } else if aliveAccess > 0 {
            finding = .warn(
                "the refresh token revoked with \(Self.hinted(hint)) is dead, but \(aliveAccess) of \(accessTokens.count) of its access tokens still open the resource (RFC 7009 §2.1: SHOULD be invalidated)",
                evidence: evidence
            )
        } else {
            finding = .held(
                "the refresh token revoked with \(Self.hinted(hint)) got \(after.summary)"
                    + (resourceWorks ? " and its access tokens no longer open the resource" : ""),
                evidence: evidence
            )
        }
        context.ledger.record(check, finding)
        return refusals
    }

    /// An access token of its own, shown opening the resource, revoked with `hint`: RFC 7009 §2 says a server
    /// SHOULD support revoking access tokens (`unsupported_token_type` when it does not), so one that still
    /// opens the resource, or is not supported, is a warning; another refusal of a valid request fails.
    private func revokeAccessToken(
        _ codes: any AuditCodeSource,
        _ google: Client,
        hint: String?
    ) async throws(AuditUnreachable) -> [(String, ResourceAnswer)] {
        let check = CheckSpec.tokenRevoke
        guard let revokeURL = target.revokeURL, let tokens = try await ownTokens(codes, google, for: check), let access = tokens.accessToken,
            let before = try await resource(access, for: "token.revoke: its access token before revoking it (\(Self.hinted(hint)))")
        else { return [] }
        var evidence = ["before revoking, its access token at the resource: \(before)"]
        guard before.opened else {
            context.ledger.record(check, .note(evidence))
            return []
        }
        let revoked = try await revoke(access, hint: hint, at: revokeURL, google, for: "token.revoke: the access token with \(Self.hinted(hint))")
        evidence.append("POST \(revokeURL) token=\(Self.redacted("access_token", access)), \(Self.hinted(hint)): \(revoked)")
        if revoked.isError("unsupported_token_type") {
            context.ledger.record(
                check,
                .warn(
                    "revoking an access token with \(Self.hinted(hint)) got unsupported_token_type (RFC 7009 §2: SHOULD support it)",
                    evidence: evidence
                )
            )
            return []
        }
        guard revoked.status == 200 else {
            context.ledger.record(
                check,
                .fail("revoking a valid access token with \(Self.hinted(hint)) got \(revoked.summary), not HTTP 200", evidence: evidence)
            )
            return []
        }
        guard let after = try await resource(access, for: "token.revoke: the access token revoked with \(Self.hinted(hint))") else { return [] }
        evidence.append("after revoking, the access token at the resource: \(after)")
        context.ledger.record(
            check,
            after.opened
                ? .warn(
                    "an access token revoked with \(Self.hinted(hint)) still opens the resource (RFC 7009 §2: SHOULD support revoking access tokens)",
                    evidence: evidence
                )
                : .held("an access token revoked with \(Self.hinted(hint)) no longer opens the resource", evidence: evidence)
        )
        return after.opened ? [] : [("a revoked access token", after)]
    }

    func revokeUnknown(_ google: Client) async throws(AuditUnreachable) {
        guard let revokeURL = target.revokeURL else { return }
        let token = Self.madeUpToken()
        let answer = try await revoke(token, hint: "refresh_token", at: revokeURL, google, for: "token.revoke-unknown: a token never issued")
        let evidence = ["POST \(revokeURL) token=\(Self.redacted("refresh_token", token)) (never issued): \(answer)"]
        context.ledger.record(
            .tokenRevokeUnknown,
            answer.status == 200
                ? .held("a token never issued: HTTP 200", evidence: evidence)
                : .fail("revoking a token never issued got \(answer.summary), not HTTP 200", evidence: evidence)
        )
    }
}

/// The resource's refusals of revoked grants' access tokens, gathered from revocations that run at once.
final class RevokedAccess: Sendable {
    private let refusals = NIOLockedValueBox<[(String, ResourceAnswer)]>([])

    func add(_ answers: [(String, ResourceAnswer)]) {
        refusals.withLockedValue { $0 += answers }
    }

    var answers: [(String, ResourceAnswer)] { refusals.withLockedValue { $0 } }
}
