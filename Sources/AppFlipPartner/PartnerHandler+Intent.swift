import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The partner app's App Flip activity on Android: the daemon starts it with the Google app's intent and
/// the caller it vouches for; it applies `AndroidFlipPolicy`, obtains a code from the same authorization
/// source as a flip link (or plays its scripted outcome) and returns the result contract's answer.
///
/// The reason of every answer (the rule applied) goes to the log, and into `ERROR_DESCRIPTION` for an error
/// answer; never a code.
extension PartnerHandler {
    func handle(_ intent: IntentHandoff) {
        guard let policy = configuration.androidPolicy else {
            let message = "\(intent.appID)'s appflip handler has no android section, so it takes no intents"
            intent.finish(.failure(ErrorBody(.handlerFailed, message, app: intent.appID)))
            return
        }
        let timeout = configuration.timeout
        let work = NIOLockedValueBox<Task<Void, Never>?>(nil)
        let limit = intent.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            let error = ErrorBody(.timeout, "the appflip handler did not return a result within \(timeout)", app: intent.appID)
            guard intent.finish(.failure(error)) else { return }
            work.withLockedValue { $0?.cancel() }
            intent.logger.notice("App Flip activity timed out", metadata: ["app": "\(intent.appID)"])
        }
        let task = Task {
            let result: Result<IntentResult, any Error>
            do {
                result = .success(try await respond(to: intent, policy: policy))
            } catch {
                result = .failure(error)
            }
            if intent.finish(result) { limit.cancel() }
        }
        work.withLockedValue { $0 = task }
    }

    private func respond(to intent: IntentHandoff, policy: AndroidFlipPolicy) async throws -> IntentResult {
        var metadata: Logger.Metadata = ["app": "\(intent.appID)", "activity": "\(intent.activityName)"]
        let request: AuthorizationRequest
        switch policy.decide(intent.intent, caller: intent.caller, forResult: intent.forResult) {
        case .refuse(let result, let reason):
            metadata["reason"] = "\(reason)"
            metadata["result_code"] = "\(result.resultCode)"
            intent.logger.notice("App Flip intent refused", metadata: metadata)
            return result
        case .proceed(let checked):
            request = checked
        }
        metadata["client_id"] = "\(request.clientID)"
        let description = configuration.errorDescription
        let result: IntentResult
        switch configuration.outcome {
        case .decline, .cancel:
            metadata["reason"] = "the handler's scripted outcome is \(configuration.outcome.rawValue)"
            result = AndroidAppFlip.canceled
        case .hang:
            intent.logger.notice("App Flip activity hangs (scripted outcome)", metadata: metadata)
            try await Task.sleep(for: .seconds(86_400 * 365))
            return AndroidAppFlip.canceled
        case .unrecoverable:
            result = AndroidAppFlip.error(.unrecoverable, code: AndroidAppFlip.ErrorType.unrecoverable.rawValue, description: description)
        case .invalidRequest:
            result = AndroidAppFlip.error(.invalidRequest, code: AndroidAppFlip.ErrorType.invalidRequest.rawValue, description: description)
        case .approve:
            do throws(AuthorizationFailure) {
                result = AndroidAppFlip.code(try await source.authorizationCode(for: request))
            } catch {
                metadata["reason"] = "\(error.reason)"
                let type = Self.errorType(for: error.flipError)
                result = AndroidAppFlip.error(type, code: type.rawValue, description: error.reason)
            }
        }
        try Task.checkCancellation()  // the time limit won: the intent is already answered
        metadata["result_code"] = "\(result.resultCode)"
        intent.logger.info("App Flip intent result", metadata: metadata)
        return result
    }

    /// A transient failure is recoverable: Google falls back to web OAuth linking.
    private static func errorType(for error: FlipErrorCode) -> AndroidAppFlip.ErrorType {
        switch error {
        case .cancelled: .recoverable
        case .unrecoverable: .unrecoverable
        case .invalidRequest: .invalidRequest
        }
    }
}
