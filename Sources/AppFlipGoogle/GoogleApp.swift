public import AppFlipClient
import AppFlipCore
public import AppFlipProtocol
import NIOConcurrencyHelpers

/// The Google app's receiving half: a live app registered for Google's App Flip redirect links, which
/// keeps every result URL delivered to it, unredacted (it is the one app that may see the code).
public final class GoogleApp: Sendable {
    /// `EQHXZ8M8AV` is Google's Apple team id; the bundle id names the Google app.
    public static func appID(bundleID: String) -> String { "EQHXZ8M8AV.\(bundleID)" }

    /// Both redirect hosts, production and sandbox.
    public static let domains = AppFlipRedirectURI.Environment.allCases.map { "applinks:\($0.rawValue)" }

    /// The app id this registration took, `EQHXZ8M8AV.<bundle id>`.
    public let appID: String
    private let held = NIOLockedValueBox(Held())

    /// The URLs received and not yet taken, oldest first, and the states of the flips in flight (a count
    /// each: two flips may send one state), compared byte for byte as the result's `state` must be.
    private struct Held {
        var received: [String] = []
        var inFlight: [[UInt8]: Int] = [:]
    }

    private init(appID: String) {
        self.appID = appID
    }

    /// Registers `connection` as the Google app with bundle `bundleID`: it claims `/a/<bundleID>` on both
    /// redirect hosts and answers `continue: true` to each result. With no bundle id it claims every Google
    /// app's path, `/a/*`, and sees whatever a partner opens on the redirect hosts.
    public static func register(on connection: AppFlipConnection, bundleID: String?) async throws -> GoogleApp {
        let app = GoogleApp(appID: appID(bundleID: bundleID ?? "com.google.OPA"))
        let registration = RegisterRequest(appID: app.appID, domains: domains, components: [.object(["/": .string("/a/\(bundleID ?? "*")")])])
        let handler = ImmediateLiveApp { [held = app.held] push in
            held.withLockedValue { $0.received.append(push.activity.webpageURL ?? "") }
            return LiveAnswer(continue: true)
        }
        // The Google app of a run that has just ended (the previous `appflip flip`) stays registered until the
        // daemon has seen its connection close: a claim conflict is retried for up to two seconds.
        for attempt in 1... {
            do {
                _ = try await connection.register(registration, handler: handler)
                return app
            } catch let error as ErrorBody where error.code == .claimConflict && attempt < 40 {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        preconditionFailure("unreachable: the loop returns or throws")
    }

    /// Marks a flip that sends `state` as in flight, before its link is sent: until it takes its result, a
    /// URL carrying this state is that flip's, and no other flip takes it.
    public func expectResult(state: String) {
        held.withLockedValue { $0.inFlight[Array(state.utf8), default: 0] += 1 }
    }

    /// What the Google app holds for one flip once the daemon has answered its `open`.
    public enum Taken: Sendable, Hashable {
        /// The flip's result, to be checked: the URL whose `state` is the flip's byte for byte, or one the
        /// flip's `open` delivered that carries neither `state` nor `code` (the seed's error sample has no
        /// state, and Google takes it).
        case result(String)
        /// A URL the flip's `open` delivered whose `state` is no flip's in flight, or a code without a
        /// state. The Google app would not take it, so the flip has no result; the URL is the flip's to
        /// report, never another's. `shown` is the URL as the `open` reply lists it, its secrets redacted.
        case unclaimed(url: String, shown: String)
    }

    /// Removes and returns what belongs to the flip that sent `state` (see ``Taken``), and ends its flight
    /// (``expectResult(state:)``). `opened` is the daemon's reply to the flip's `open`: what the partner app
    /// opened, secrets redacted; a URL is the flip's without its state only when its redacted form is one
    /// this flip's app opened and delivered. Twins (two URLs that differ only in secret values of the same
    /// length) look alike there: either is taken, and what is reported of them is the same.
    ///
    /// The daemon delivers every URL an app opens before it replies to the `open`, so the result is here
    /// once that reply is. Many flips may be in flight on one registration (the benchmark). nil: nothing
    /// here is this flip's; a URL carrying another in-flight flip's state is left to that flip.
    public func takeResult(state: String, opened: [OpenedURL]) -> Taken? {
        held.withLockedValue { held in
            let key = Array(state.utf8)
            if let count = held.inFlight[key] { held.inFlight[key] = count > 1 ? count - 1 : nil }
            if let index = held.received.firstIndex(where: { ResultFields($0).state?.utf8.elementsEqual(key) == true }) {
                return .result(held.received.remove(at: index))
            }
            for entry in opened where entry.status == .delivered {
                guard let index = held.received.firstIndex(where: { Redaction.redact(url: $0).utf8.elementsEqual(entry.url.utf8) }) else { continue }
                let url = held.received[index]
                let fields = ResultFields(url)
                if !fields.hasState && !fields.hasCode { return .result(held.received.remove(at: index)) }
                if let state = fields.state, held.inFlight[Array(state.utf8)] != nil { continue }
                return .unclaimed(url: held.received.remove(at: index), shown: entry.url)
            }
            return nil
        }
    }

    /// Every URL received and not yet taken, oldest first.
    public var received: [String] {
        held.withLockedValue { $0.received }
    }

    /// Removes and returns every URL received so far.
    public func takeAll() -> [String] {
        held.withLockedValue { held in
            defer { held.received = [] }
            return held.received
        }
    }
}

/// What of a received URL decides whose it is: its `state` (the first, form-decoded; nil when absent or not
/// UTF-8) and whether it has a `state` or a `code` at all, names decoded as the result checker reads them.
private struct ResultFields {
    var state: String?
    var hasState = false
    var hasCode = false

    init(_ url: String) {
        guard let query = (try? RawURL(url))?.query else { return }
        for (name, value) in FormEncoding.fields(of: query.utf8) {
            switch PercentEncoding.formDecode(Substring(name)) {
            case "state" where !hasState:
                hasState = true
                state = PercentEncoding.formDecode(Substring(value))
            case "code": hasCode = true
            default: continue
            }
        }
    }
}
