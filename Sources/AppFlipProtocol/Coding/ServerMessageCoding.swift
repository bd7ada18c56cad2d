public import FoundationEssentials

extension Reply: Codable {
    private enum Keys: String, CodingKey {
        case id, op, ok, result, error
    }

    /// Decodes a reply line: `ok` selects `result` or `error`, and `op` says which result.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = try container.decodeIfPresent(RequestID.self, forKey: .id)
        op = try container.decodeIfPresent(Op.self, forKey: .op)
        if try container.decode(Bool.self, forKey: .ok) {
            guard let op else {
                throw DecodingError.keyNotFound(Keys.op, .init(codingPath: [], debugDescription: "a successful reply names its op"))
            }
            switch op {
            case .hello: outcome = .success(.hello(try container.decode(HelloResult.self, forKey: .result)))
            case .open: outcome = .success(.open(try container.decode(OpenResult.self, forKey: .result)))
            case .register: outcome = .success(.register(try container.decode(RegisterResult.self, forKey: .result)))
            case .answer: outcome = .success(.answer(try container.decode(AnswerResult.self, forKey: .result)))
            case .explain: outcome = .success(.explain(try container.decode(ExplainResult.self, forKey: .result)))
            case .apps: outcome = .success(.apps(try container.decode(AppsResult.self, forKey: .result)))
            case .watch: outcome = .success(.watch(try container.decode(WatchResult.self, forKey: .result)))
            case .start: outcome = .success(.start(try container.decode(StartResult.self, forKey: .result)))
            case .result: outcome = .success(.result(try container.decode(AnswerResult.self, forKey: .result)))
            }
        } else {
            outcome = .failure(try container.decode(ErrorBody.self, forKey: .error))
        }
    }

    /// Encodes `{"id":…,"op":…,"ok":…,"result"|"error":…}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
        try container.encodeIfPresent(op, forKey: .op)
        switch outcome {
        case .success(let result):
            try container.encode(true, forKey: .ok)
            switch result {
            case .hello(let value): try container.encode(value, forKey: .result)
            case .open(let value): try container.encode(value, forKey: .result)
            case .register(let value): try container.encode(value, forKey: .result)
            case .answer(let value): try container.encode(value, forKey: .result)
            case .explain(let value): try container.encode(value, forKey: .result)
            case .apps(let value): try container.encode(value, forKey: .result)
            case .watch(let value): try container.encode(value, forKey: .result)
            case .start(let value): try container.encode(value, forKey: .result)
            case .result(let value): try container.encode(value, forKey: .result)
            }
        case .failure(let error):
            try container.encode(false, forKey: .ok)
            try container.encode(error, forKey: .error)
        }
    }
}

extension ServerMessage: Codable {
    private enum Keys: String, CodingKey {
        case push, event
    }

    private enum PushKind: String, Codable {
        case activity, event, intent
    }

    /// Decodes any line the daemon sends: a reply, or an `activity` or `event` push.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        switch try container.decodeIfPresent(PushKind.self, forKey: .push) {
        case nil: self = .reply(try Reply(from: decoder))
        case .activity: self = .activity(try ActivityPush(from: decoder))
        case .event: self = .event(try container.decode(HandoffEvent.self, forKey: .event))
        case .intent: self = .intent(try IntentPush(from: decoder))
        }
    }

    /// Encodes the message as the line the daemon sends.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .reply(let reply):
            try reply.encode(to: encoder)
        case .activity(let push):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(PushKind.activity, forKey: .push)
            try push.encode(to: encoder)
        case .event(let event):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(PushKind.event, forKey: .push)
            try container.encode(event, forKey: .event)
        case .intent(let push):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(PushKind.intent, forKey: .push)
            try push.encode(to: encoder)
        }
    }

    /// The message as one line of JSON, newline excluded: the bytes `JSONEncoder.protocolEncoder` writes,
    /// written without it when the message is hot.
    public func encodedLine() -> [UInt8] {
        var writer = JSONLineWriter()
        writer.write(self, otherwiseUsing: .protocolEncoder)
        return Array(writer.bytes)
    }

    /// Decodes one line (without its newline).
    public static func decode(line: some Collection<UInt8>, using decoder: JSONDecoder = JSONDecoder()) throws -> ServerMessage {
        if let message = line.withContiguousStorageIfAvailable({ ServerMessageFastPath.decode(UnsafeRawBufferPointer($0)) }) ?? nil {
            return message
        }
        return try decoder.decode(ServerMessage.self, from: Data(line))
    }
}
