import AppFlipAudit
import AppFlipCore
import AppFlipTesting
import Testing

/// A partner app behind an `exec` handler (a shell script, as a partner would wrap its own code): through a
/// real appflipd, the conforming script passes every partner check, and the one that accepts any client_id
/// fails exactly `partner.wrong-client-id`.
@Suite struct ExecPartnerAuditTests {
    static let link = "https://exec.test/link/flip"
    static let appID = "EXECPART01.test.exec"

    /// The App Flip decision of docs/app-flip.md in POSIX sh: the redirect_uri must be exactly one of the 12
    /// (decoded: only `%3A` and `%2F` are decoded, so any other escape cannot equal one), then the client_id
    /// (unless `checksClientID` is false), then `state` and `scope` (`invalid_request`); the result pastes the
    /// state as the link carried it, still percent-encoded. A decline is exit status 1 with the reason on stderr.
    static func script(checksClientID: Bool) -> String {
        let clientCheck =
            checksClientID
            ? #"[ "$client_ids" -eq 1 ] && [ "$client_id" = "\#(TestPartner.clientID)" ] || { echo "client_id refused" >&2; exit 1; }"#
            : "# any client_id is accepted"
        return #"""
            set -f
            read -r activity
            url=${activity#*\"webpageURL\":\"}
            url=${url%%\"*}
            query=${url#*\?}
            [ "$query" = "$url" ] && query=""
            client_ids=0 redirects=0 states=0 scopes=0 client_id= redirect= state= scope=
            IFS='&'
            for pair in $query; do
              name=${pair%%=*}
              value=${pair#*=}
              [ "$value" = "$pair" ] && value=""
              case $name in
                client_id) client_id=$value client_ids=$((client_ids + 1)) ;;
                redirect_uri) redirect=$value redirects=$((redirects + 1)) ;;
                state) state=$value states=$((states + 1)) ;;
                scope) scope=$value scopes=$((scopes + 1)) ;;
              esac
            done
            IFS=' '
            redirect=$(printf '%s' "$redirect" | sed 's/%3[Aa]/:/g; s/%2[Ff]/\//g')
            allowed=no
            for host in oauth-redirect.googleusercontent.com oauth-redirect-sandbox.googleusercontent.com; do
              for app in com.google.OPA com.google.Chromecast; do
                for variant in "" .dev .enterprise; do
                  [ "$redirect" = "https://$host/a/$app$variant" ] && allowed=yes
                done
              done
            done
            [ "$redirects" -eq 1 ] && [ "$allowed" = yes ] || { echo "redirect_uri is not allowed" >&2; exit 1; }
            \#(clientCheck)
            if [ "$states" -ne 1 ]; then
              printf '%s\n' "$redirect?error=invalid_request"
            elif [ -z "$state" ] || [ "$scopes" -ne 1 ] || [ -z "$scope" ]; then
              printf '%s\n' "$redirect?error=invalid_request&state=$state"
            else
              printf '%s\n' "$redirect?code=exec-code-$$&state=$state"
            fi
            """#
    }

    static func audit(checksClientID: Bool) async throws -> AuditReport {
        let app = TestApp(
            appID: appID,
            domains: ["applinks:exec.test"],
            components: [.object(["/": .string("/link/*")])],
            handler: .script(script(checksClientID: checksClientID))
        )
        return try await withTestDaemon(apps: [app]) { daemon in
            let auditor = Auditor(
                partner: (
                    PartnerAppTarget(link: try RawURL(link), clientID: TestPartner.clientID, scopes: ["profile", "devices"]), daemon.socketPath
                )
            )
            return await auditor.run(httpClient: daemon.httpClient!)
        }
    }

    static func explain(_ report: AuditReport) -> String {
        report.results.filter { $0.outcome != .pass }.map { "\($0.check.id) \($0.outcome.rawValue): \($0.reason)" }.joined(separator: "\n")
    }

    @Test func aConformingExecHandlerPassesEveryPartnerCheck() async throws {
        let report = try await Self.audit(checksClientID: true)
        // `partner.scope` exchanges the app's codes; the script's are no server's, so it is skipped.
        let partnerChecks = AuditCatalogue.all.filter { $0.target == .partnerApp && $0 != .partnerScope }
        #expect(partnerChecks.filter { report.result($0).outcome != .pass } == [], "\(Self.explain(report))")
        #expect(report.result(.partnerScope).outcome == .skipped)
        #expect(report.result(.partnerRoute).reason.contains(Self.appID))
        // The script's reason for declining travels to the audit (protocol v1's `reason`).
        #expect(report.result(.partnerWrongClientID).evidence.contains { $0.contains("declined: client_id refused") }, "\(Self.explain(report))")
        #expect(report.exitStatus == 0)
    }

    @Test func anExecHandlerThatAcceptsAnyClientIDFailsExactlyThatCheck() async throws {
        let report = try await Self.audit(checksClientID: false)
        #expect(report.checks(.fail) == [.partnerWrongClientID], "\(Self.explain(report))")
        #expect(report.checks(.warning) == [], "\(Self.explain(report))")
        #expect(report.exitStatus == 2)
    }
}
