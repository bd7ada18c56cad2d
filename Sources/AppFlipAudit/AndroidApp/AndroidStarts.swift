import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipProtocol
import NIOCore

extension AndroidAppAudit {
    /// One start and what came back.
    struct Start {
        var label: String
        var result: IntentResult?
        var failure: String?
        /// The daemon's error code, when the start failed with one.
        var failureCode: ErrorCode?

        var verdict: AndroidFlipResultChecker.Verdict? { result.map(AndroidFlipResultChecker.check) }
        /// Any non-empty `AUTHORIZATION_CODE`, whatever the result code: a code handed out.
        var code: String? {
            guard let value = result?.extras[AndroidAppFlip.authorizationCode]?.string, !value.isEmpty else { return nil }
            return value
        }
        var summary: String {
            if let failure { return failure }
            guard let result else { return "no result" }
            var parts = ["result code \(result.resultCode)"]
            for (name, extra) in result.redactedExtras.sorted(by: { $0.key < $1.key }) { parts.append("\(name)=\(extra)") }
            return parts.joined(separator: ", ")
        }
    }

    /// A fingerprint none of `fingerprints` is.
    static func otherFingerprint(than fingerprints: [String]) -> String {
        for pair in ["0F", "1E", "2D"] {
            let candidate = Array(repeating: pair, count: 32).joined(separator: ":")
            if !fingerprints.contains(candidate) { return candidate }
        }
        preconditionFailure("three distinct fingerprints cannot all be taken")
    }

    /// Starts the App Flip activity for a result from a connection registered as `caller` (nil: none), with
    /// the target's extras overridden by `extras`.
    func start(_ label: String, as caller: AndroidCaller?, extras: [String: IntentExtra]) async throws(AuditUnreachable) -> Start {
        let connection: AppFlipConnection
        do {
            connection = try await AppFlipConnection.connect(to: socketPath, client: "appflip-audit-android")
        } catch {
            throw AuditUnreachable(DaemonUnreachable.sentence(socketPath: socketPath))
        }
        defer { Task { await connection.close() } }
        if let caller {
            do {
                try await AndroidFlipRunner.register(as: caller, on: connection)
            } catch {
                throw AuditUnreachable("cannot register as \(caller.package): \(error)")
            }
        }
        var intent = AndroidAppFlip.intent(
            action: target.action,
            package: target.package,
            clientID: target.clientID,
            scopes: target.scopes,
            redirectURI: target.redirectURI
        )
        intent.extras.merge(extras) { $1 }
        let request = StartRequest(intent: intent, forResult: true)
        let handoff = HandoffRecording(context.exchanges, .start, purpose: label, sent: Self.recorded(intent, as: caller))
        let start: Start
        do {
            let reply = try await withTimeout(target.timeout) {
                try await connection.send(.start(request)).get()
            }
            switch reply.outcome {
            case .success(.start(let started)): start = Start(label: label, result: started.result)
            case .success(let other): start = Start(label: label, failure: "unexpected \(other.op.rawValue) reply")
            case .failure(let error): start = Start(label: label, failure: "\(error.code.rawValue): \(error.message)", failureCode: error.code)
            }
        } catch {
            let failure = "no reply from appflipd within \(target.timeout): \(error)"
            handoff.failed(failure)
            return Start(label: label, failure: failure)
        }
        handoff.replied(start.summary)
        return start
    }

    /// The intent as a handoff record shows it: its URI form, its extras (secret ones by length), and who
    /// started it.
    static func recorded(_ intent: Intent, as caller: AndroidCaller?) -> String {
        let extras = intent.redactedExtras.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let identity = caller.map { "as \($0.package) signed by \($0.fingerprints.joined(separator: ", "))" } ?? "as an app appflipd cannot name"
        return "\(intent.uri(component: nil)) for a result, \(identity); extras: \(extras.joined(separator: ", "))"
    }
}
