import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipProtocol
import NIOConcurrencyHelpers
import NIOCore

extension AndroidAppAudit {
    /// One start and what came back.
    struct Start: Sendable {
        var label: String
        var result: IntentResult?
        /// The activity the intent resolved to.
        var activity: String?
        var failure: String?
        /// The daemon's error code, when the start failed with one.
        var failureCode: ErrorCode?
        /// The earlier intent the same code was returned to, when it was.
        var repeated: String?
        /// Nothing was started: appflipd would not register the audit as this caller (its claim policy).
        var notStarted = false

        var verdict: AndroidFlipResultChecker.Verdict? { result.map(AndroidFlipResultChecker.check) }
        /// Any non-empty `AUTHORIZATION_CODE`, whatever the result code: a code handed out.
        var code: String? {
            guard let value = result?.extras[AndroidAppFlip.authorizationCode]?.string, !value.isEmpty else { return nil }
            return value
        }
        /// Whether the intent reached an activity: true once one answered or failed, false when Android would
        /// throw (no activity declares the action in the DEFAULT category, or it is not exported), nil when it
        /// cannot be told (no app of the package, no reply).
        var resolved: Bool? {
            if result != nil { return true }
            switch failureCode {
            case .activityNotFound?, .activityNotExported?: return false
            case .unknownPackage?, nil: return nil
            default: return true
            }
        }
        var summary: String {
            if let failure { return failure }
            guard let result else { return "no result" }
            var parts = ["result code \(result.resultCode)"]
            for (name, extra) in result.redactedExtras.sorted(by: { $0.key < $1.key }) { parts.append("\(name)=\(extra)") }
            if let repeated { parts.append("the code already returned to \(repeated)") }
            return parts.joined(separator: ", ")
        }
        var line: String { "\(label): \(summary)" }
    }

    /// Every start of the run, for `android.result-contract`, which judges each result.
    final class StartLog: Sendable {
        private let starts = NIOLockedValueBox<[Start]>([])

        func add(_ start: Start) {
            starts.withLockedValue { $0.append(start) }
        }

        var all: [Start] { starts.withLockedValue { $0 } }
    }

    /// A connection of its own registered as one caller's identity (nil: none, a caller the daemon cannot
    /// name), for the starts that need it: Android learns the caller from the package manager, never from
    /// the intent, so each identity is a registration.
    struct CallerSession: Sendable {
        let connection: AppFlipConnection
        /// Whom the connection is registered as, for the handoff record.
        let caller: AndroidCaller?

        /// Closes the connection, which frees the caller's package for the next registration.
        func close() async {
            await connection.close()
        }
    }

    /// A connection registered as `caller` (nil: none), or why appflipd would not register it (its claim
    /// policy, or a package another app holds). Throws only when appflipd cannot be reached.
    func open(as caller: AndroidCaller?) async throws(AuditUnreachable) -> Result<CallerSession, RegistrationRefused> {
        let connection: AppFlipConnection
        do {
            connection = try await AppFlipConnection.connect(to: socketPath, client: "appflip-audit-android")
        } catch {
            throw AuditUnreachable(DaemonUnreachable.sentence(socketPath: socketPath))
        }
        if let caller {
            do {
                try await AndroidFlipRunner.register(as: caller, on: connection)
            } catch {
                await connection.close()
                return .failure(RegistrationRefused(description: "appflipd would not register the audit as \(Self.shown(caller.package)): \(error)"))
            }
        }
        return .success(CallerSession(connection: connection, caller: caller))
    }

    /// appflipd's refusal to register the audit as a caller, in words.
    struct RegistrationRefused: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the App Flip activity for a result on `session`, with the target's intent changed by `action`,
    /// `extras` and `removing`; records the start, and registers the code it got (one returned before breaks
    /// `android.code`: a new code for each intent).
    func start(
        _ label: String,
        on session: CallerSession,
        action: String? = nil,
        extras: [String: IntentExtra] = [:],
        removing: [String] = []
    ) async -> Start {
        var intent = AndroidAppFlip.intent(
            action: action ?? target.action,
            package: target.package,
            clientID: target.clientID,
            scopes: target.scopes,
            redirectURI: target.redirectURI
        )
        intent.extras.merge(extras) { $1 }
        for name in removing { intent.extras[name] = nil }
        var start = Start(label: label)
        let request = StartRequest(intent: intent, forResult: true)
        let handoff = HandoffRecording(context.exchanges, .start, purpose: label, sent: Self.recorded(intent, as: session.caller))
        do {
            let reply = try await withTimeout(target.timeout) {
                try await session.connection.send(.start(request)).get()
            }
            switch reply.outcome {
            case .success(.start(let started)):
                start.result = started.result
                start.activity = started.activity
            case .success(let other): start.failure = "unexpected \(other.op.rawValue) reply"
            case .failure(let error):
                start.failure = "\(error.code.rawValue): \(error.message)"
                start.failureCode = error.code
            }
            handoff.replied(start.summary)
        } catch {
            let failure = "no reply from appflipd within \(target.timeout): \(error)"
            start.failure = failure
            handoff.failed(failure)
        }
        if let code = start.code, let earlier = context.codes.register(code, by: "the intent \(label)") {
            start.repeated = earlier
            context.ledger.record(.androidCode, .fail("the intent \(label) got the code already returned to \(earlier): each intent gets a new code"))
        }
        log.add(start)
        return start
    }

    /// One start as `caller` (nil: none), on a connection of its own that is closed before it returns, so that
    /// the next registration of the same package finds it free.
    func start(_ label: String, as caller: AndroidCaller?) async throws(AuditUnreachable) -> Start {
        switch try await open(as: caller) {
        case .failure(let refused):
            return Start(label: label, failure: refused.description, notStarted: true)
        case .success(let session):
            let started = await start(label, on: session)
            await session.close()
            return started
        }
    }

    /// The intent as a handoff record shows it: its URI form, its extras (secret ones by length), and who
    /// started it.
    static func recorded(_ intent: Intent, as caller: AndroidCaller?) -> String {
        let extras = intent.redactedExtras.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let identity = caller.map { "as \($0.package) signed by \($0.fingerprints.joined(separator: ", "))" } ?? "as an app appflipd cannot name"
        return "\(intent.uri(component: nil)) for a result, \(identity); extras: \(extras.joined(separator: ", "))"
    }

    /// A package name as the report shows it: a long one cut, with its length.
    static func shown(_ package: String) -> String {
        package.utf8.count > 80 ? "\(package.prefix(60))… (\(package.utf8.count) bytes)" : package
    }
}
