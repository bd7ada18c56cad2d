/// The checkout the tests were built from, for the files they run or read in place: the Python fixtures'
/// scripts (`Tests/ThirdPartyFixtures`), `Config/`, `docs/`.
public enum Repository {
    /// The checkout's root directory, from this file's own path.
    public static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)  // Tests/AppFlipTestSupport/Repository.swift
        return components.joined(separator: "/")
    }()

    /// `relative`, a path inside the checkout, as an absolute path.
    public static func path(_ relative: String) -> String {
        root + "/" + relative
    }
}
