import AppFlipCore
import NIOConcurrencyHelpers

/// Every code the audit asked for fresh, by fingerprint, with where it came from: a code handed out a second
/// time breaks the rule of the source that handed it out (`partner.code`, `authorize.code`, `android.code`:
/// a new code for each request, RFC 6749 §4.1.2 and §10.5), and the check that asked for it is skipped
/// naming that rule instead of failing for a replay it never made.
final class CodeRegistry: Sendable {
    private let seen = NIOLockedValueBox<[String: String]>([:])

    /// Registers `code`, handed out by `request`; returns the earlier request that was handed the same code.
    func register(_ code: String, by request: String) -> String? {
        let key = Fingerprint.of(code) + ":\(code.utf8.count)"
        return seen.withLockedValue { seen in
            if let earlier = seen[key] { return earlier }
            seen[key] = request
            return nil
        }
    }
}
