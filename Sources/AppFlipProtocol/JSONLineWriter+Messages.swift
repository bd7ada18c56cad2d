import AppFlipCore
/// Each message type written by ``JSONLineWriter``, keys in sorted order, `nil` fields left out: the same
/// bytes `JSONEncoder.protocolEncoder` produces for the type's `Codable` form.
extension JSONLineWriter {
    mutating func write(_ message: ServerMessage) {
        switch message {
        case .reply(let reply):
            write(reply)
        case .activity(let push):
            beginObject()
            key("activity"); write(push.activity)
            field("app", push.app)
            key("handoff"); integer(push.handoff)
            field("push", "activity")
            field("rule", push.rule)
            endObject()
        case .event(let event):
            beginObject()
            key("event"); write(event)
            field("push", "event")
            endObject()
        }
    }

    mutating func write(_ reply: Reply) {
        beginObject()
        if case .failure(let error) = reply.outcome {
            key("error"); write(error)
        }
        key("id")
        switch reply.id {
        case .number(let number)?: integer(number)
        case .string(let string)?: self.string(string)
        case nil: null()
        }
        key("ok"); bool((try? reply.outcome.get()) != nil)
        field("op", reply.op?.rawValue)
        if case .success(let result) = reply.outcome {
            key("result")
            switch result {
            case .hello(let hello): write(hello)
            case .open(let open): write(open)
            case .register(let register):
                beginObject()
                field("appID", register.appID)
                field("domains", strings: register.domains)
                field("warnings", strings: register.warnings)
                endObject()
            case .answer(let answer):
                beginObject()
                key("handoff"); integer(answer.handoff)
                endObject()
            case .explain(let explain): write(explain)
            case .apps(let apps):
                beginObject()
                key("apps"); beginArray(); apps.apps.forEach { write($0) }; endArray()
                endObject()
            case .watch(let watch):
                beginObject()
                key("subscribed"); bool(watch.subscribed)
                endObject()
            }
        }
        endObject()
    }

    mutating func write(_ error: ErrorBody) {
        beginObject()
        field("app", error.app)
        field("code", error.code.rawValue)
        field("field", error.field)
        field("message", error.message)
        if let opened = error.opened {
            key("opened"); beginArray(); opened.forEach { write($0) }; endArray()
        }
        field("rule", error.rule)
        endObject()
    }

    mutating func write(_ opened: OpenedURL) {
        beginObject()
        field("app", opened.app)
        if let error = opened.error {
            key("error"); write(error)
        }
        field("rule", opened.rule)
        field("status", opened.status.rawValue)
        key("universalLinksOnly"); bool(opened.universalLinksOnly)
        field("url", opened.url)
        endObject()
    }

    mutating func write(_ open: OpenResult) {
        beginObject()
        field("app", open.app)
        field("domain", open.domain)
        key("opened"); beginArray(); open.opened.forEach { write($0) }; endArray()
        field("rule", open.rule)
        field("status", open.status.rawValue)
        endObject()
    }

    mutating func write(_ hello: HelloResult) {
        beginObject()
        key("maxLineBytes"); integer(hello.maxLineBytes)
        if let peer = hello.peer {
            key("peer"); write(peer)
        }
        field("server", hello.server)
        key("version"); integer(hello.version)
        endObject()
    }

    mutating func write(_ peer: PeerInfo) {
        beginObject()
        key("gid"); integer(peer.gid)
        key("pid"); integer(peer.pid)
        key("uid"); integer(peer.uid)
        endObject()
    }

    mutating func write(_ explain: ExplainResult) {
        beginObject()
        field("app", explain.app)
        key("candidates"); beginArray()
        for candidate in explain.candidates {
            beginObject()
            field("app", candidate.app)
            field("component", candidate.component)
            field("details", candidate.details)
            field("domain", candidate.domain)
            field("outcome", candidate.outcome)
            field("rule", candidate.rule)
            endObject()
        }
        endArray()
        field("decision", explain.decision.rawValue)
        field("rule", explain.rule)
        field("url", explain.url)
        endObject()
    }

    mutating func write(_ app: AppInfo) {
        beginObject()
        field("appID", app.appID)
        field("domains", strings: app.domains)
        field("handler", app.handler)
        field("kind", app.kind.rawValue)
        if let peer = app.peer {
            key("peer"); write(peer)
        }
        field("source", app.source)
        endObject()
    }

    mutating func write(_ event: HandoffEvent) {
        beginObject()
        field("app", event.app)
        field("client", event.client)
        if let from = event.from {
            key("from"); write(from)
        }
        key("hop"); integer(event.hop)
        key("latencyMicros"); integer(event.latencyMicros)
        field("outcome", event.outcome)
        field("rule", event.rule)
        key("time"); double(event.time)
        field("url", event.url)
        endObject()
    }

    mutating func write(_ activity: Activity) {
        beginObject()
        field("activityType", activity.activityType)
        if let userInfo = activity.userInfo {
            key("userInfo"); write(JSONValue.object(userInfo))
        }
        field("webpageURL", activity.webpageURL)
        endObject()
    }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let bool): self.bool(bool)
        case .number(let number): double(number)
        case .string(let string): self.string(string)
        case .array(let array):
            beginArray(); array.forEach { write($0) }; endArray()
        case .object(let object):
            beginObject()
            for (name, member) in object.sorted(by: { $0.key < $1.key }) {
                key(dynamic: name); write(member)
            }
            endObject()
        }
    }
}

extension JSONLineWriter {
    /// A request, its op's fields flattened beside `id` and `op`, all keys sorted.
    mutating func write(_ request: Request) {
        func id() {
            key("id")
            switch request.id {
            case .number(let number): integer(number)
            case .string(let string): self.string(string)
            }
        }
        func op() { field("op", request.body.op.rawValue) }
        beginObject()
        switch request.body {
        case .hello(let hello):
            field("client", hello.client)
            id(); op()
            key("version"); integer(hello.version)
        case .open(let open):
            key("activity"); write(open.activity)
            id(); op()
            key("options"); write(open.options)
        case .register(let register):
            field("appID", register.appID)
            if let association = register.association {
                key("association"); write(association)
            }
            if let components = register.components {
                key("components"); write(JSONValue.array(components))
            }
            field("domains", strings: register.domains)
            id(); op()
        case .answer(let answer):
            key("continue"); bool(answer.continue)
            key("handoff"); integer(answer.handoff)
            id(); op()
            key("open"); beginArray()
            for request in answer.open {
                beginObject()
                key("options"); write(request.options)
                field("url", request.url)
                endObject()
            }
            endArray()
        case .explain(let explain):
            id(); op()
            field("url", explain.url)
        case .apps, .watch:
            id(); op()
        }
        endObject()
    }

    mutating func write(_ options: OpenOptions) {
        beginObject()
        key("universalLinksOnly"); bool(options.universalLinksOnly)
        endObject()
    }
}
