import AppFlipCore

/// `authorize.https` and `token.https` on every partner endpoint the audit called: Google's account-linking
/// reference requires HTTPS of all of them ("All endpoints must be served over a secure HTTPS connection"),
/// and RFC 6749 §3.1 and §3.2 require TLS at the authorization and token endpoints. An endpoint on the
/// loopback interface is a local server Google cannot call: not judged.
enum HTTPSJudge {
    static func judge(_ exchanges: [ExchangeRecorder.Exchange], into ledger: AuditLedger) {
        let checks: [(CheckSpec, Set<RecordedExchange.Endpoint>)] = [
            (.authorizeHTTPS, [.authorization]), (.tokenHTTPS, [.token, .revocation, .resource]),
        ]
        for (check, endpoints) in checks {
            var urls: [String] = []
            for exchange in exchanges where endpoints.contains(exchange.record.endpoint) {
                let url = String(exchange.record.request.url.prefix { $0 != "?" })
                if !urls.contains(url) { urls.append(url) }
            }
            let judged = urls.filter { !isLoopback($0) }
            guard !judged.isEmpty else {
                ledger.set(
                    .publicEndpoint,
                    .nothingToJudge("every endpoint is on the loopback interface, a local server Google cannot call"),
                    for: check
                )
                continue
            }
            ledger.set(.publicEndpoint, .met, for: check)
            let plain = judged.filter { (try? RawURL($0))?.normalizedScheme != "https" }
            if plain.isEmpty {
                ledger.record(check, .held("\(judged.count) endpoint(s), each over HTTPS", evidence: judged))
            } else {
                ledger.record(check, .fail("not over HTTPS: " + plain.joined(separator: ", "), evidence: judged))
            }
        }
    }

    /// Whether `url`'s host is `localhost`, an IPv4 address in 127.0.0.0/8, or `[::1]`.
    static func isLoopback(_ url: String) -> Bool {
        guard let host = (try? RawURL(url))?.normalizedHost else { return false }
        if host == "localhost" || host == "[::1]" || host == "::1" { return true }
        let octets = host.split(separator: ".")
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
