import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The partner app's side of App Flip, built in: the daemon hands it a flip link; it applies
/// `FlipPolicy`, obtains a code (or plays its scripted outcome) and opens the result on the verified
/// redirect URI with "universal links only".
///
/// Only an `AllowedRedirectURI` from the policy is ever opened, and the state is echoed from the policy's
/// own parsing, byte for byte. Logs carry the decision and the reason, never a code or a credential.
struct PartnerHandler: ActivityHandler {
    let kind = "appflip"

    let configuration: PartnerConfiguration
    let source: any AuthorizationCodeSource

    func handle(_ handoff: Handoff) {
        let timeout = configuration.timeout
        // Whichever answers first, the handler's work or its time limit, is the answer
        // (``Handoff/answer(_:)`` says which); the other then stops.
        let work = NIOLockedValueBox<Task<Void, Never>?>(nil)
        // The time limit is an event loop timer, not a sleeping task beside the work: that cost a tenth of the
        // throughput of a flip's socket hops (`appflip-bench --flip-parts`, `hops`).
        let limit = handoff.eventLoop.scheduleTask(in: TimeAmount(timeout)) { [configuration] in
            let error = ErrorBody(.timeout, "the appflip handler did not answer within \(timeout)", app: handoff.appID)
            guard handoff.answer(.failure(error)) else { return }
            work.withLockedValue { $0?.cancel() }
            handoff.logger.notice(
                "App Flip handler timed out",
                metadata: ["app": "\(handoff.appID)", "outcome": "\(configuration.outcome.rawValue)"]
            )
        }
        let task = Task {
            let answer: Result<ActivityAnswer, any Error>
            do {
                answer = .success(try await respond(to: handoff))
            } catch {
                answer = .failure(error)
            }
            if handoff.answer(answer) { limit.cancel() }
        }
        work.withLockedValue { $0 = task }
    }

    private func respond(to handoff: Handoff) async throws -> ActivityAnswer {
        var metadata: Logger.Metadata = ["app": "\(handoff.appID)"]
        switch configuration.policy.decide(handoff.url) {
        case .decline(let reason):
            metadata["reason"] = "\(reason)"
            handoff.logger.notice("App Flip link declined; nothing opened", metadata: metadata)
            return .decline("\(reason)")
        case .invalidRequest(let redirectURI, let state, let description):
            metadata["redirect_uri"] = "\(redirectURI)"
            metadata["reason"] = "\(description)"
            handoff.logger.notice("App Flip link invalid; answering invalid_request", metadata: metadata)
            open(.error(.invalidRequest, description: description, state: state), on: redirectURI, handoff)
            return .continue
        case .proceed(let request):
            metadata["client_id"] = "\(request.clientID)"
            metadata["redirect_uri"] = "\(request.redirectURI)"
            switch configuration.outcome {
            case .decline:
                handoff.logger.notice("App Flip link declined by the scripted outcome; nothing opened", metadata: metadata)
                return .decline("declined without a redirect: the handler's scripted outcome is decline")
            case .hang:
                handoff.logger.notice("App Flip handler hangs (scripted outcome)", metadata: metadata)
                try await Task.sleep(for: .seconds(86_400 * 365))
                return .decline()
            case .cancel, .unrecoverable, .invalidRequest:
                let error = configuration.outcome.flipError!
                metadata["outcome"] = "\(error.rawValue)"
                handoff.logger.info("App Flip scripted error", metadata: metadata)
                open(.error(error, description: configuration.errorDescription, state: request.state), on: request.redirectURI, handoff)
                return .continue
            case .approve:
                let result: FlipResult
                do throws(AuthorizationFailure) {
                    let code = try await source.authorizationCode(for: request.authorizationRequest)
                    result = .code(code, state: request.state)
                } catch {
                    metadata["reason"] = "\(error.reason)"
                    result = .error(error.flipError, description: error.reason, state: request.state)
                }
                try Task.checkCancellation()  // the time limit won: the handoff is already answered
                metadata["result"] = "\(result)"
                handoff.logger.info("App Flip result", metadata: metadata)
                open(result, on: request.redirectURI, handoff)
                return .continue
            }
        }
    }

    /// Opens the result: the only way this handler opens anything, and only on a verified redirect URI.
    private func open(_ result: FlipResult, on redirectURI: AllowedRedirectURI, _ handoff: Handoff) {
        handoff.open(result.url(appendingTo: redirectURI), options: OpenOptions(universalLinksOnly: true))
    }
}
