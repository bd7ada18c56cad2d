import AppFlipConfiguration
import AppFlipTestSupport
import AppFlipTesting
import AsyncHTTPClient
import PropertyBased
import Testing

@testable import AppFlipOAuth

/// A stateful property test of codes and token families against the real embedded server over HTTP: random
/// sequences of authorize, exchange (and replay), refresh (with the current, the previous or any earlier
/// refresh token), revoke (refresh or access token), /userinfo and time passing, under each rotation
/// policy. A model that states the documented rules predicts every answer: no sequence may yield a token
/// the rules say is dead, and none may kill one that must live.
@Suite struct TokenFamilyPropertyTests {
    /// What the rules say, independently of the store.
    struct Model {
        struct Code {
            var value: String
            var expiresAt: Duration
            var family: Int?
            var swept = false
        }

        struct Family {
            var alive = true
            var current: String
            var previous: String?
            var previousUntil: Duration?
            /// Every refresh token the family ever had, oldest first.
            var tokens: [String]
        }

        struct Access {
            var value: String
            var family: Int
            var expiresAt: Duration
            var revoked = false
        }

        let rotation: RefreshTokenRotation
        let grace: Duration?
        var now: Duration = .zero
        /// The store sweeps expired codes at most once per code lifetime, when it issues a code.
        var nextSweep: Duration = .seconds(60)
        var codes: [Code] = []
        var families: [Family] = []
        var access: [Access] = []

        func isAlive(_ index: Int) -> Bool {
            let token = access[index]
            return !token.revoked && families[token.family].alive && now < token.expiresAt
        }
    }

    static let advances: [Duration] = [
        .seconds(1), .seconds(29), .seconds(30), .seconds(31), .seconds(59), .seconds(61), .seconds(3599), .seconds(3601),
    ]

    /// One operation, decoded from a generated integer so that sequences shrink as arrays of integers.
    static func run(
        _ operation: Int,
        model: inout Model,
        server: EmbeddedAuthorizationServer,
        base: String,
        clock: ManualClock,
        client: HTTPClient
    )
        async throws
    {
        let kind = operation % 20
        let a = (operation / 20) % 1000
        let b = (operation / 20_000) % 1000
        let context = "op \(kind) at t=\(model.now)"
        switch kind {
        case 0...2:  // authorize
            if model.now >= model.nextSweep {
                model.nextSweep = model.now + .seconds(60)
                for index in model.codes.indices where model.codes[index].expiresAt <= model.now { model.codes[index].swept = true }
            }
            let code = try await EmbeddedTokenTests.code(server, base, with: client)
            model.codes.append(Model.Code(value: code, expiresAt: model.now + .seconds(60)))
        case 3...6:  // exchange, or replay
            guard !model.codes.isEmpty else { return }
            let index = a % model.codes.count
            let code = model.codes[index]
            let response = try await EmbeddedTokenTests.exchange(base, code: code.value, with: client)
            if code.swept {
                #expect(try EmbeddedCompletenessTests.error(response) == "invalid_grant", "\(context): swept code")
            } else if let family = code.family {
                #expect(try EmbeddedCompletenessTests.error(response) == "invalid_grant", "\(context): replayed code")
                model.families[family].alive = false
            } else if model.now >= code.expiresAt {
                #expect(try EmbeddedCompletenessTests.error(response) == "invalid_grant", "\(context): expired code")
            } else {
                let tokens = try EmbeddedCompletenessTests.tokens(response)
                model.codes[index].family = model.families.count
                model.families.append(Model.Family(current: tokens.refresh, tokens: [tokens.refresh]))
                model.access.append(Model.Access(value: tokens.access, family: model.families.count - 1, expiresAt: model.now + .seconds(3600)))
            }
        case 7...11:  // refresh with any refresh token the family ever had
            guard !model.families.isEmpty else { return }
            let familyIndex = a % model.families.count
            var family = model.families[familyIndex]
            let token = family.tokens[b % family.tokens.count]
            let response = try await EmbeddedCompletenessTests.refresh(base, token, with: client)
            let previousInGrace =
                model.rotation == .grace && token == family.previous && (family.previousUntil.map { model.now < $0 } ?? true)
            guard family.alive, token == family.current || previousInGrace else {
                #expect(try EmbeddedCompletenessTests.error(response) == "invalid_grant", "\(context): dead or retired refresh token")
                model.families[familyIndex].alive = false
                return
            }
            let tokens = try EmbeddedCompletenessTests.tokens(response)
            switch model.rotation {
            case .off:
                #expect(tokens.refresh == token, "\(context): off returns the same refresh token")
            case .strict:
                #expect(!family.tokens.contains(tokens.refresh))
                family.current = tokens.refresh
                family.tokens.append(tokens.refresh)
            case .grace:
                #expect(!family.tokens.contains(tokens.refresh))
                if token == family.current {
                    family.previous = token
                    family.previousUntil = model.grace.map { model.now + $0 }
                }
                family.current = tokens.refresh
                family.tokens.append(tokens.refresh)
            }
            model.families[familyIndex] = family
            model.access.append(Model.Access(value: tokens.access, family: familyIndex, expiresAt: model.now + .seconds(3600)))
        case 12...13:  // revoke a refresh token: its family dies
            guard !model.families.isEmpty else { return }
            let familyIndex = a % model.families.count
            let family = model.families[familyIndex]
            let response = try await EmbeddedCompletenessTests.revoke(
                base,
                family.tokens[b % family.tokens.count],
                hint: b % 2 == 0 ? "refresh_token" : nil,
                with: client
            )
            #expect(response.status == 200, "\(context)")
            model.families[familyIndex].alive = false
        case 14:  // revoke an access token
            guard !model.access.isEmpty else { return }
            let index = a % model.access.count
            let response = try await EmbeddedCompletenessTests.revoke(
                base,
                model.access[index].value,
                hint: b % 2 == 0 ? "access_token" : nil,
                with: client
            )
            #expect(response.status == 200, "\(context)")
            model.access[index].revoked = true
        case 15...17:  // the resource decides
            guard !model.access.isEmpty else { return }
            let index = a % model.access.count
            let status = try await EmbeddedCompletenessTests.userinfo(base, model.access[index].value, with: client)
            #expect(status == (model.isAlive(index) ? 200 : 401), "\(context): access token \(index)")
        default:  // time passes
            let step = advances[a % advances.count]
            model.now += step
            clock.advance(by: step)
        }
    }

    /// Every rotation policy, with and without a grace period.
    static let policies: [(RefreshTokenRotation, Int?)] = [(.grace, nil), (.grace, 30), (.strict, nil), (.off, nil)]

    @Test("random sequences of exchange, refresh, replay, revoke and expiry follow the rules", arguments: policies)
    func tokenFamilies(rotation: RefreshTokenRotation, graceSeconds: Int?) async {
        await Self.checkTokenFamilies(rotation: rotation, graceSeconds: graceSeconds, sequences: 60)
    }

    /// The same with many more sequences: a rarer interleaving has its chance.
    @Test("many more random sequences follow the rules", .slow, arguments: policies)
    func manyMoreTokenFamilies(rotation: RefreshTokenRotation, graceSeconds: Int?) async {
        await Self.checkTokenFamilies(rotation: rotation, graceSeconds: graceSeconds, sequences: 400)
    }

    /// Runs `sequences` random sequences of operations against a fresh embedded server each, holding every
    /// answer to the model.
    static func checkTokenFamilies(rotation: RefreshTokenRotation, graceSeconds: Int?, sequences: Int) async {
        let operations = Gen<Int>.value(in: 0...999_999_999).array(of: 1...40)
        await propertyCheck(count: sequences, input: operations) { sequence in
            let clock = ManualClock()
            let start = Model(rotation: rotation, grace: graceSeconds.map { .seconds($0) })
            try await withEmbeddedServer(testConfiguration(rotation: rotation, graceSeconds: graceSeconds), clock: clock) { server, base in
                try await withHTTPClient { client in
                    var model = start
                    for operation in sequence {
                        try await Self.run(operation, model: &model, server: server, base: base, clock: clock, client: client)
                    }
                    // At the end, every access token ever issued is alive exactly when the rules say so.
                    for index in model.access.indices {
                        let status = try await EmbeddedCompletenessTests.userinfo(base, model.access[index].value, with: client)
                        #expect(status == (model.isAlive(index) ? 200 : 401), "final check of access token \(index)")
                    }
                    // And every live family's current refresh token still refreshes.
                    for (index, family) in model.families.enumerated() where family.alive {
                        let response = try await EmbeddedCompletenessTests.refresh(base, family.current, with: client)
                        #expect(response.status == 200, "final refresh of family \(index)")
                    }
                }
            }
        }
    }
}
