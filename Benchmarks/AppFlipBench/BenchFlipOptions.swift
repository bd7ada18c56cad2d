import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipProtocol
import ArgumentParser
import AsyncHTTPClient
import Glibc
import Logging
import NIOConcurrencyHelpers

/// `appflip-bench --flip`: full App Flips per second through a running appflipd and its OAuth server.
struct BenchFlipOptions: ParsableArguments {
    @Flag(
        help:
            "Measure full App Flips (flip link → partner handler → /authorize → result to the Google app → /token) through a running appflipd instead; --connections sets the concurrency."
    )
    var flip = false

    @Flag(
        help:
            "Measure a full flip and its parts alone (socket hops, /authorize, /token) in alternating rounds, all in this process on an appflipd with the embedded OAuth server of --flip-oauth-config."
    )
    var flipParts = false

    @Option(help: "With --flip or --flip-parts: measured flips (and operations of each part) per concurrency.")
    var flips = 2_000

    @Option(name: .customLong("flip-socket"), help: "With --flip: the running appflipd's socket (default: as for every daemon command).")
    var socket: String?

    @Option(name: .customLong("flip-link"), help: "With --flip: the partner's flip link.")
    var link = "https://partner.appflip.test/link/flip"

    @Option(name: .customLong("flip-client-id"), help: "With --flip: the client_id.")
    var clientID = "appflip-demo-client"

    @Option(name: .customLong("flip-oauth-config"), help: "With --flip: the OAuth configuration naming the token endpoint and the client secret.")
    var oauthConfig: String?
}
