import AppFlipTestSupport

/// Where the fixtures' Python lives: one folder per fixture in this target's own folder, each with its
/// `setup.sh` (`Tests/ThirdPartyFixtures/django-oauth-toolkit`, `oauth-servers`, `oauth-clients`, `junit`).
enum ThirdPartyFixture {
    /// The absolute path of the fixture folder `name`.
    static func folder(_ name: String) -> String {
        Repository.path("Tests/ThirdPartyFixtures/" + name)
    }
}
