/// `"handler": {"builtin": "accept"}`: continues every activity at once and opens nothing.
///
/// The cheapest possible app, so that `appflip bench` can measure the daemon's own cost, and a stand-in
/// for an app whose only job is to exist.
struct AcceptHandler: ActivityHandler {
    let kind = "builtin:accept"

    func handle(_ handoff: Handoff) {
        handoff.answer(.success(.continue))
    }
}
