/// A client_id that is not Google's, by each way an inexact comparison lets one through: each must be
/// refused without a redirect (RFC 6749 §4.1.2.1: a missing or invalid client identifier MUST NOT be
/// redirected to the redirect_uri).
public struct WrongClientID: Sendable, Hashable {
    /// What differs from Google's client_id, for the report.
    public var label: String
    /// The value sent; nil: no client_id at all.
    public var value: String?

    /// The wrong client_ids for `clientID`, each distinct from it.
    public static func all(of clientID: String) -> [WrongClientID] {
        var variants = [WrongClientID(label: "another client", value: clientID + "-not-google")]
        let otherCase = clientID.uppercased() != clientID ? clientID.uppercased() : clientID.lowercased()
        if otherCase != clientID { variants.append(WrongClientID(label: "another case", value: otherCase)) }
        if clientID.count > 1 { variants.append(WrongClientID(label: "a prefix", value: String(clientID.dropLast()))) }
        variants += [
            WrongClientID(label: "a trailing space", value: clientID + " "),
            WrongClientID(label: "empty", value: ""),
            WrongClientID(label: "missing", value: nil),
        ]
        return variants
    }
}
