import AppFlipCore

/// A `Location` as a report may show it: every query and fragment parameter by name, with its value as
/// sent, but a code, token or other secret (by `SecretNames`) as its length and fingerprint.
enum LocationText {
    static func shown(_ location: String) -> String {
        guard let mark = location.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return location }
        var text = String(location[..<mark])
        var separator = location[mark]
        for part in location[location.index(after: mark)...].split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false) {
            let pairs = part.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(halves[0])
                guard halves.count == 2 else { return name }
                let value = String(halves[1])
                if SecretNames.isSecret(name: PercentEncoding.formDecode(name) ?? name) {
                    return "\(name)=(\(value.utf8.count) bytes, sha256:\(Fingerprint.of(value)))"
                }
                return "\(name)=\(value.count > 120 ? String(value.prefix(120)) + "…" : value)"
            }
            text += String(separator) + pairs.joined(separator: "&")
            separator = "#"
        }
        return text
    }
}
