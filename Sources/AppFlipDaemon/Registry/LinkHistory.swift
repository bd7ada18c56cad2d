import AppFlipCore

/// The device's history as Android's link resolution reads it: when each package was first installed
/// (Android 12+ opens the approved app first installed last, `filterToLastFirstInstalled`), and when its
/// Android 6–11 status last became `always` under each verifier (its app-link generation: the one verified
/// last opens the link). One clock orders both.
///
/// The daemon installs an app when it loads or registers it: static apps at start in their files' order,
/// then live apps as they register. A reload or a new registration of a package already installed is an
/// update, which keeps its install time, and verifies it again: a status that stays `always` keeps its
/// time, one that becomes `always` gets a new one. A package no app has any more is uninstalled.
struct LinkHistory: Sendable {
    private var clock = 0
    private var installed: [String: Int] = [:]
    private var verifiedAt: [String: [AppLinkVerifier: Int]] = [:]

    /// Installs or updates `app`, and records its Android 6–11 status under each verifier.
    mutating func install(_ app: RegisteredApp) {
        guard let identity = app.android else { return }
        let package = identity.package
        if installed[package] == nil {
            clock += 1
            installed[package] = clock
        }
        var times = verifiedAt[package] ?? [:]
        for verifier in AppLinkVerifier.allCases {
            guard app.appLinks?.isAlways(identity, verifier: verifier) == true else {
                times[verifier] = nil
                continue
            }
            if times[verifier] == nil {
                clock += 1
                times[verifier] = clock
            }
        }
        verifiedAt[package] = times
    }

    /// Forgets `package`, which no app is any more.
    mutating func uninstall(package: String) {
        installed[package] = nil
        verifiedAt[package] = nil
    }

    /// Forgets every package but `packages`.
    mutating func retain(packages: Set<String>) {
        for package in installed.keys where !packages.contains(package) { uninstall(package: package) }
    }

    /// When `package` was installed and, per verifier, became `always`.
    func entry(for package: String) -> (installed: Int, verifiedAt: [AppLinkVerifier: Int]) {
        (installed[package] ?? 0, verifiedAt[package] ?? [:])
    }
}
