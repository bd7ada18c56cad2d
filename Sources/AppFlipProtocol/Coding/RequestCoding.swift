import AppFlipCore
public import FoundationEssentials

extension Request: Codable {
    private enum EnvelopeKeys: String, CodingKey {
        case id, op
    }

    /// Decodes a request line's object, throwing a ``RequestFailure`` that keeps whatever `id` and `op` it read.
    public init(from decoder: any Decoder) throws {
        let envelope: KeyedDecodingContainer<EnvelopeKeys>
        do {
            envelope = try decoder.container(keyedBy: EnvelopeKeys.self)
        } catch {
            throw RequestFailure(id: nil, op: nil, error: ErrorBody(.notAnObject, "a request must be a JSON object"))
        }
        let id: RequestID
        do {
            // The line's own numeric `id`, read exactly by ``decodeWithJSONDecoder(line:using:)``.
            if let scanned = decoder.userInfo[.scannedNumericID] as? FastJSONScanner.Number {
                guard case .integer(let value) = scanned else { throw RequestFailure(id: nil, op: nil, error: .invalidID) }
                id = .number(value)
            } else {
                guard let decoded = try envelope.decodeIfPresent(RequestID.self, forKey: .id) else {
                    throw RequestFailure(id: nil, op: nil, error: ErrorBody(.invalidRequest, "`id` is missing", field: "id"))
                }
                id = decoded
            }
        } catch let failure as RequestFailure {
            throw failure
        } catch {
            throw RequestFailure(id: nil, op: nil, error: .invalidID)
        }
        let opName: String
        do {
            guard let decoded = try envelope.decodeIfPresent(String.self, forKey: .op) else {
                throw RequestFailure(id: id, op: nil, error: ErrorBody(.invalidRequest, "`op` is missing", field: "op"))
            }
            opName = decoded
        } catch let failure as RequestFailure {
            throw failure
        } catch {
            throw RequestFailure(id: id, op: nil, error: ErrorBody(.invalidRequest, "`op` must be a string", field: "op"))
        }
        guard let op = Op(rawValue: opName) else {
            let known = Op.allCases.map(\.rawValue).joined(separator: ", ")
            throw RequestFailure(id: id, op: nil, error: ErrorBody(.unknownOp, "unknown op \"\(opName)\"; protocol v1 has \(known)", field: "op"))
        }
        do {
            switch op {
            case .hello: body = .hello(try HelloRequest(from: decoder))
            case .open: body = .open(try OpenRequest(from: decoder))
            case .register: body = .register(try RegisterRequest(from: decoder))
            case .answer: body = .answer(try AnswerRequest(from: decoder))
            case .explain: body = .explain(try ExplainRequest(from: decoder))
            case .apps: body = .apps
            case .watch: body = .watch
            case .start: body = .start(try StartRequest(from: decoder))
            case .result: body = .result(try ResultRequest(from: decoder))
            }
        } catch let error as DecodingError {
            throw RequestFailure(id: id, op: op, error: ErrorBody(decodingError: error))
        }
        self.id = id
    }

    /// Encodes `{"id":…,"op":…,…params}`, as a client sends it.
    public func encode(to encoder: any Encoder) throws {
        var envelope = encoder.container(keyedBy: EnvelopeKeys.self)
        try envelope.encode(id, forKey: .id)
        try envelope.encode(body.op, forKey: .op)
        switch body {
        case .hello(let hello): try hello.encode(to: encoder)
        case .open(let open): try open.encode(to: encoder)
        case .register(let register): try register.encode(to: encoder)
        case .answer(let answer): try answer.encode(to: encoder)
        case .explain(let explain): try explain.encode(to: encoder)
        case .start(let start): try start.encode(to: encoder)
        case .result(let result): try result.encode(to: encoder)
        case .apps, .watch: break
        }
    }

    /// Decodes one line (without its newline), telling apart every way it can be malformed.
    public static func decode(line: some Collection<UInt8>, using decoder: JSONDecoder = JSONDecoder()) -> Result<Request, RequestFailure> {
        if let request = line.withContiguousStorageIfAvailable({ RequestFastPath.decode(UnsafeRawBufferPointer($0)) }) ?? nil {
            return .success(request)
        }
        if line.count > RegisterRequest.maxLineBytes, let refused = refuseOversizedRegistration(line) {
            return .failure(refused)
        }
        return decodeWithJSONDecoder(line: line, using: decoder)
    }

    /// A `register` line too long to carry an association Apple would serve, refused before anything parses
    /// it: parsing an oversized one costs CPU and memory far out of proportion to the line.
    private static func refuseOversizedRegistration(_ line: some Collection<UInt8>) -> RequestFailure? {
        let envelope = line.withContiguousStorageIfAvailable { FastJSONScanner.envelope(of: UnsafeRawBufferPointer($0)) } ?? nil
        guard let envelope, envelope.op == Op.register.rawValue else { return nil }
        let message =
            "a register line of \(line.count) bytes is over \(RegisterRequest.maxLineBytes): an association is at most 128 KB (Apple's limit), so it is refused unread"
        return RequestFailure(id: envelope.id, op: .register, error: ErrorBody(.invalidAssociation, message, field: "association"))
    }

    /// The reference decoder: `JSONDecoder` and the `Codable` conformances, with every error.
    static func decodeWithJSONDecoder(line: some Collection<UInt8>, using decoder: JSONDecoder = JSONDecoder()) -> Result<Request, RequestFailure> {
        let bytes = Data(line)
        // `JSONDecoder` rounds some spellings of an integer (`9223372036854775807.0` is refused, `1e-400` is 0):
        // a numeric `id` is judged from the line's own digits, as the fast path judges it.
        decoder.userInfo[.scannedNumericID] = bytes.withUnsafeBytes { FastJSONScanner.numericID(of: $0) }
        do {
            return .success(try decoder.decode(Request.self, from: bytes))
        } catch let failure as RequestFailure {
            return .failure(failure)
        } catch {
            // The decoder refuses invalid UTF-8 as it refuses any malformed JSON; only then is it worth
            // telling the two apart.
            guard String(validating: bytes, as: UTF8.self) != nil else {
                return .failure(RequestFailure(id: nil, op: nil, error: ErrorBody(.invalidUTF8, "the line is not valid UTF-8")))
            }
            return .failure(RequestFailure(id: nil, op: nil, error: ErrorBody(.invalidJSON, "the line is not JSON")))
        }
    }

    /// The request as one line of JSON, newline excluded: the bytes `JSONEncoder.protocolEncoder` writes,
    /// written without it when the request is hot.
    public func encodedLine() -> [UInt8] {
        var writer = JSONLineWriter()
        writer.write(self, otherwiseUsing: .protocolEncoder)
        return Array(writer.bytes)
    }
}

extension CodingUserInfoKey {
    /// The request line's numeric `id`, as ``FastJSONScanner/numericID(of:)`` read it.
    fileprivate static let scannedNumericID = CodingUserInfoKey(rawValue: "appflip.scannedNumericID")!
}

extension ErrorBody {
    /// An `id` that is neither a string nor an integer in the signed 64-bit range.
    static let invalidID = ErrorBody(.invalidRequest, "`id` must be a string or an integer in the signed 64-bit range", field: "id")

    /// An `invalid_request` naming the field a decoding error points at.
    public init(decodingError: DecodingError) {
        let failure = DecodingFailure(decodingError)
        let field = failure.field ?? ""
        switch failure.problem {
        case .missing: self.init(.invalidRequest, "`\(field)` is missing", field: field)
        case .typeMismatch(let expected): self.init(.invalidRequest, "`\(field)` must be \(expected)", field: field)
        case .null(let expected): self.init(.invalidRequest, "`\(field)` must be \(expected), not null", field: field)
        case .invalid(let reason): self.init(.invalidRequest, "`\(field)` is invalid: \(reason)", field: field)
        case .notJSON: self.init(.invalidRequest, "the request is not valid JSON")
        }
    }
}

extension JSONEncoder {
    /// Compact, sorted output: one line per message, and stable bytes for tests and diffs.
    public static var protocolEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
