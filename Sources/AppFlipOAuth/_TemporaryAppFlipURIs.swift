// TEMPORARY — replaced at merge by the core's `AppFlipRedirectURI.all` (AppFlipCore/Flip).
// Nothing else in AppFlipOAuth spells out these URLs: every use (today only the tests) goes through
// `temporaryAppFlipRedirectURIs`. At merge, replace this file's body with one line such as
// `let temporaryAppFlipRedirectURIs: [String] = AppFlipRedirectURI.all.map(\.string)`.

/// The 12 App Flip redirect URIs: `https://oauth-redirect[-sandbox].googleusercontent.com/a/` followed by
/// `com.google.Chromecast` or `com.google.OPA`, each with an optional `.dev` or `.enterprise` suffix.
let temporaryAppFlipRedirectURIs: [String] = {
    var uris: [String] = []
    for host in ["oauth-redirect.googleusercontent.com", "oauth-redirect-sandbox.googleusercontent.com"] {
        for app in ["com.google.Chromecast", "com.google.OPA"] {
            for suffix in ["", ".dev", ".enterprise"] {
                uris.append("https://\(host)/a/\(app)\(suffix)")
            }
        }
    }
    return uris
}()
