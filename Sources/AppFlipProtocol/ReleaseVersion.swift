/// The release of appflipd and appflip, in one place: `--version` of both programs, `hello`'s `serverVersion`,
/// the daemon's first journal line and the Debian package's version (scripts/package asks the built binary)
/// all come from here, so they cannot disagree.
public enum ReleaseVersion {
    /// The version string, a Debian upstream version (digits and dots; no `-`, which Debian keeps for its
    /// revision). Bump it here, and add the matching entry to the package's changelog (scripts/package/changelog).
    public static let current = "0.1.0"
}
