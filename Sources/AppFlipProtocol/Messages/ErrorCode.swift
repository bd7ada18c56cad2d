/// Every machine-readable error code of protocol v1. `docs/protocol.md` documents each with an example.
public enum ErrorCode: String, Sendable, Hashable, Codable, CaseIterable {
    // Framing and request shape: the connection keeps serving, except after `line_too_long`.
    /// The line is not valid UTF-8.
    case invalidUTF8 = "invalid_utf8"
    /// The line is not JSON.
    case invalidJSON = "invalid_json"
    /// The line is JSON but not an object.
    case notAnObject = "not_an_object"
    /// The line is longer than the limit; the daemon closes the connection after this reply.
    case lineTooLong = "line_too_long"
    /// `op` names no operation of protocol v1.
    case unknownOp = "unknown_op"
    /// A field is missing or has the wrong type; `field` names it.
    case invalidRequest = "invalid_request"
    /// A request came before `hello`.
    case helloRequired = "hello_required"
    /// `hello` asked for a protocol version this daemon does not speak.
    case unsupportedVersion = "unsupported_version"
    /// The `id` is already in flight on this connection.
    case duplicateID = "duplicate_id"
    /// The connection already has the maximum number of requests in flight.
    case tooManyRequests = "too_many_requests"
    /// The daemon is stopping and takes no new work.
    case shuttingDown = "shutting_down"
    /// The daemon, or the peer's uid, already has the most connections allowed; the daemon closes the new
    /// connection after this reply.
    case tooManyConnections = "too_many_connections"
    /// The connection did not complete `hello` within `helloTimeoutSeconds`; the daemon closes it after
    /// this reply.
    case helloTimeout = "hello_timeout"
    /// The connection had nothing in flight, was neither a live app nor a watcher, and sent no whole line
    /// for `idleTimeoutSeconds`; the daemon closes it after this reply, and no request was acted on.
    case idleTimeout = "idle_timeout"

    // `open`, and the delivery of every URL a handler opens.
    /// The activity type is not `NSUserActivityTypeBrowsingWeb`.
    case unsupportedActivity = "unsupported_activity"
    /// `webpageURL` is missing or is not a valid absolute URL.
    case invalidURL = "invalid_url"
    /// The URL's scheme is not `https`.
    case notHTTPS = "not_https"
    /// No app claims the URL.
    case noApp = "no_app"
    /// The claiming app's AASA excludes the URL; `rule` names the component.
    case excluded = "excluded"
    /// The handler answered `continue: false`.
    case declined = "declined"
    /// The handler broke: crashed, exited with another status, disconnected, or answered nonsense.
    case handlerFailed = "handler_failed"
    /// The handler did not answer in time.
    case timeout = "timeout"
    /// A URL opened by a handler would be handed on more times than the daemon allows.
    case tooManyHops = "too_many_hops"

    // `start`, Android's intent resolution.
    /// No registered app has the intent's package (Android: `ActivityNotFoundException`).
    case unknownPackage = "unknown_package"
    /// No activity of the package lists the action with `android.intent.category.DEFAULT`
    /// (`ActivityNotFoundException`).
    case activityNotFound = "activity_not_found"
    /// The activity is not exported and the caller is another app (`SecurityException`).
    case activityNotExported = "activity_not_exported"

    // `register` and `answer`.
    /// The uid is not allowed to register live apps.
    case registrationDenied = "registration_denied"
    /// The app id or an associated domain is owned by a static app or another uid's live app.
    case claimConflict = "claim_conflict"
    /// The associated domains or the AASA document cannot be used.
    case invalidAssociation = "invalid_association"
    /// This connection is already a live app.
    case alreadyRegistered = "already_registered"
    /// `answer` names a handoff that is not waiting for this app (answered, timed out, or never sent).
    case unknownHandoff = "unknown_handoff"
    /// `answer` came on a connection that is not a live app.
    case notRegistered = "not_registered"
}
