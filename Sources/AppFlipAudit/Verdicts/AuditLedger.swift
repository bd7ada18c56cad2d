import AppFlipCore
import NIOConcurrencyHelpers

/// What one audit run found, check by check, and where each need stands: written by every probe and judge
/// as the run goes, read once by ``VerdictBuilder`` at the end. A need is global, or a check's own when its
/// own material (its own code, its own tokens) fell short where the global need was met. After `close()`,
/// a run stopped by its timeout writes nothing more.
final class AuditLedger: Sendable {
    struct Snapshot: Sendable {
        var findings: [CheckSpec: [Finding]] = [:]
        var needs: [AuditNeed: NeedState] = [:]
        var ownNeeds: [CheckSpec: [AuditNeed: NeedState]] = [:]
        var unreachable: [String] = []

        /// The state of `need` for `check`: its own first, then the global one; nil when nothing decided it.
        func state(of need: AuditNeed, for check: CheckSpec) -> (state: NeedState, own: Bool)? {
            if let own = ownNeeds[check]?[need] { return (own, true) }
            return needs[need].map { ($0, false) }
        }
    }

    // The audit's locks are NIO's pthread mutexes, not Synchronization.Mutex: on Linux that one is futex calls
    // inside the uninstrumented standard library, and ThreadSanitizer would report the concurrent checks'
    // writes as races.
    private let state = NIOLockedValueBox<(snapshot: Snapshot, closed: Bool)>((Snapshot(), false))

    /// Adds what was found about `check`.
    func record(_ check: CheckSpec, _ finding: Finding) {
        state.withLockedValue { state in
            guard !state.closed else { return }
            state.snapshot.findings[check, default: []].append(finding)
        }
    }

    /// Sets where `need` stands for every check, or only for `check`'s own material. A global need keeps the
    /// state it was first given: the first cause is the one reported, and a later shortfall of one check's
    /// material is that check's own.
    func set(_ need: AuditNeed, _ needState: NeedState, for check: CheckSpec? = nil) {
        state.withLockedValue { state in
            guard !state.closed else { return }
            if let check {
                state.snapshot.ownNeeds[check, default: [:]][need] = needState
            } else if state.snapshot.needs[need] == nil {
                state.snapshot.needs[need] = needState
            }
        }
    }

    /// Marks `need` met for every check.
    func establish(_ need: AuditNeed) { set(need, .met) }

    /// Where `need` stands globally; nil when undecided.
    func state(of need: AuditNeed) -> NeedState? {
        state.withLockedValue { $0.snapshot.needs[need] }
    }

    /// Whether `need` is met globally.
    func isMet(_ need: AuditNeed) -> Bool { state(of: need) == .met }

    /// Something that could not be reached, for the report's `unreachable`.
    func unreachable(_ problem: String) {
        state.withLockedValue { state in
            guard !state.closed else { return }
            state.snapshot.unreachable.append(problem)
        }
    }

    /// The findings and needs so far; with `closing`, nothing is written afterwards.
    func snapshot(closing: Bool = false) -> Snapshot {
        state.withLockedValue { state in
            if closing { state.closed = true }
            return state.snapshot
        }
    }
}
