/// Which certificate authorities the fetch trusts: the system's, as a device does, or the ones in a PEM file
/// (`--ca-file`), for a private or test server.
public enum HostedAssociationTrust: Sendable, Hashable {
    /// The system's trust store.
    case system
    /// Only the certificates in this PEM file.
    case caFile(String)
}
