import AppFlipCore

/// The line protocol of the AASA conformance corpus (`PROTOCOL.md`): a case per line in, an answer per
/// line out. Every line gets exactly one answer; a case that cannot be decided gets an error answer and
/// the run continues.
enum AASAMatchStream {
    /// Answers every line of standard input. Returns false when at least one case was answered with an error.
    static func run() -> Bool {
        var allDecided = true
        var lineNumber = 0
        while let line = readLine(strippingNewline: true) {
            lineNumber += 1
            guard line.contains(where: { !$0.isWhitespace }) else { continue }
            let (answer, decided) = answer(line, lineNumber: lineNumber)
            allDecided = allDecided && decided
            StandardStreams.writeLine(answer.compactJSON)
        }
        return allDecided
    }

    static func answer(_ line: String, lineNumber: Int) -> (JSONValue, decided: Bool) {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: Array(line.utf8))
        } catch {
            return (failure(id: .null, "line \(lineNumber) is not JSON: \(error.description)"), false)
        }
        guard case .object(let members) = document else {
            return (failure(id: .null, "line \(lineNumber) is not a JSON object"), false)
        }
        let id = members["id"] ?? .null
        guard let aasa = members["aasa"] else { return (failure(id: id, "line \(lineNumber) has no \"aasa\""), false) }
        guard case .string(let appID)? = members["appId"] else {
            return (failure(id: id, "line \(lineNumber) has no \"appId\" string"), false)
        }
        guard case .string(let url)? = members["url"] else {
            return (failure(id: id, "line \(lineNumber) has no \"url\" string"), false)
        }
        let domain: String?
        switch members["domain"] {
        case nil, .null?: domain = nil
        case .string(let text)?: domain = text
        default: return (failure(id: id, "line \(lineNumber): \"domain\" must be a string"), false)
        }
        do {
            let file = try AssociationFile(document: aasa)
            let outcome = try AASAMatchOutcome.decide(file: file, appID: appID, url: url, domain: domain)
            return (.object(["id": id, "decision": .string(outcome.decision.outcome.rawValue)]), true)
        } catch let error as AASALoadError {
            let reasons = error.errors.map { "\($0.code.rawValue) at \($0.pointer): \($0.message)" }
            return (failure(id: id, "the aasa document was refused: " + reasons.joined(separator: "; ")), false)
        } catch {
            return (failure(id: id, "\(error)"), false)
        }
    }

    private static func failure(id: JSONValue, _ message: String) -> JSONValue {
        .object(["id": id, "decision": .string("error"), "error": .string(message)])
    }

}
