import AppFlipCore
import BenchmarkThresholds
import Glibc

// The cost of routing one URL through `RouteTable.route` with 1, 100 and 10,000 registered apps, measured
// in one run. Every table holds app 0, and the same URLs (on app 0's host) are routed through each, so the
// figures differ only by the registry's size. A second figure routes URLs spread over every registered
// host, which adds the cache misses of a large registry. The ratio of 10,000 apps to 1 is held to
// Benchmarks/Thresholds/match.json (`--thresholds FILE` names another, `--no-thresholds` skips it): a broken
// threshold exits 1. Run in release: `swift run -c release MatchBenchmark`.

let arguments = Array(CommandLine.arguments.dropFirst())
let thresholdsFile: String? =
    switch arguments {
    case []: "Benchmarks/Thresholds/match.json"
    case ["--no-thresholds"]: nil
    case let given where given.count == 2 && given[0] == "--thresholds": given[1]
    default:
        {
            print("usage: MatchBenchmark [--thresholds FILE | --no-thresholds]")
            exit(64)
        }()
    }

let sizes = [1, 100, 10_000]
let rounds = 15
let passesPerRound = 200

/// A realistic file: Apple's overview example plus a substitution variable and a query dictionary.
func associationFile(for appID: String) throws -> AssociationFile {
    let json = """
        {"applinks":{"substitutionVariables":{"section":["news","sport","weather"]},"details":[{"appIDs":["\(appID)"],
        "components":[{"#":"no_universal_links","exclude":true},{"/":"/buy/*"},{"/":"/help/website/*","exclude":true},
        {"/":"/help/*","?":{"articleNumber":"????"}},{"/":"/$(lang)_$(region)/$(section)/*"},{"/":"/oauth/flip","?":{"client_id":"?*"}}]}]}}
        """
    return try AssociationFile(json: Array(json.utf8))
}

func appRoute(_ index: Int) throws -> AppRoute {
    let appID = "ABCDE12345.com.example.app\(index)"
    let domains =
        index % 10 == 9
        ? ["applinks:*.tenant\(index).example.net"]
        : ["applinks:app\(index).example.com"]
    return AppRoute(
        appID: appID,
        domains: try domains.map { try AssociatedDomain($0) },
        association: try associationFile(for: appID),
        priority: index
    )
}

func host(of index: Int) -> String {
    index % 10 == 9 ? "www.tenant\(index).example.net" : "app\(index).example.com"
}

let paths = [
    "/buy/42", "/buy/42#no_universal_links", "/help/website/faq?articleNumber=4815", "/help/123?articleNumber=4815",
    "/help/123?articleNumber=481", "/elsewhere", "/en_GB/sport/results", "/qq_ZZ/sport/results",
    "/oauth/flip?client_id=abc&scope=a+b&state=xyz&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.Chromecast",
    "/", "/buy", "/help",
]

func urls(onHostsOf indices: [Int]) throws -> [RawURL] {
    var result: [RawURL] = []
    for (position, index) in indices.enumerated() {
        result.append(try RawURL("https://" + host(of: index) + paths[position % paths.count]))
    }
    return result
}

let tables = try Dictionary(uniqueKeysWithValues: sizes.map { size in (size, RouteTable(try (0..<size).map(appRoute))) })
let sameURLs = try urls(onHostsOf: Array(repeating: 0, count: 64))
let spreadURLs = try Dictionary(
    uniqueKeysWithValues: sizes.map { size in
        (size, try urls(onHostsOf: (0..<64).map { ($0 * 7919) % size }))
    }
)

/// Routes every URL; the sum of what was decided keeps the optimiser from dropping the work.
func routeAll(_ table: RouteTable, _ urls: [RawURL]) -> Int {
    var sum = 0
    for url in urls {
        switch table.route(url) {
        case .matched(let candidate): sum += 1 + (candidate.decision.componentIndex ?? 0)
        case .excluded: sum += 100
        case .noApp: break
        }
    }
    return sum
}

func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// Nanoseconds per URL for each size: the median of `rounds` rounds, the sizes interleaved within each
/// round so that drift in the machine's speed affects them alike.
func measure(_ urlsFor: (Int) -> [RawURL], checksum: inout Int) -> [Int: Double] {
    var samples: [Int: [Double]] = [:]
    let clock = ContinuousClock()
    for size in sizes { checksum &+= routeAll(tables[size]!, urlsFor(size)) }  // warm up
    for _ in 0..<rounds {
        for size in sizes {
            let table = tables[size]!
            let urls = urlsFor(size)
            var sum = 0
            let elapsed = clock.measure {
                for _ in 0..<passesPerRound { sum &+= routeAll(table, urls) }
            }
            checksum &+= sum
            samples[size, default: []].append(nanoseconds(elapsed) / Double(passesPerRound * urls.count))
        }
    }
    return samples.mapValues { $0.sorted()[$0.count / 2] }
}

/// `value` with `places` decimals (computed without libm, which this target does not link).
func rounded(_ value: Double, _ places: Int = 1) -> String {
    let scale = places == 1 ? 10.0 : 100.0
    return String(Double(Int(value * scale + 0.5)) / scale)
}

func report(_ title: String, _ figures: [Int: Double]) {
    print(title)
    for size in sizes {
        let label = String(size)
        print("  " + String(repeating: " ", count: max(0, 6 - label.count)) + label + " apps: " + rounded(figures[size]!) + " ns/URL")
    }
    print("  ratio 10,000 : 1 = " + rounded(figures[10_000]! / figures[1]!, 2) + "x")
}

var checksum = 0
let same = measure({ _ in sameURLs }, checksum: &checksum)
let spread = measure({ spreadURLs[$0]! }, checksum: &checksum)
report("RouteTable.route, the same 64 URLs on app 0's host (median of \(rounds) rounds of \(passesPerRound) passes):", same)
report("RouteTable.route, 64 URLs spread over the registered hosts:", spread)

// Registering one more app in a 10,000-app table, as the daemon does per live registration.
let clock = ContinuousClock()
let big = tables[10_000]!
let newcomer = try appRoute(10_000)
let registrations = 2_000
let elapsed = clock.measure {
    for _ in 0..<registrations { checksum &+= big.adding(newcomer).count }
}
print("RouteTable.adding into 10,000 apps: " + rounded(nanoseconds(elapsed) / Double(registrations) / 1000, 2) + " µs per registration")

print("(checksum \(checksum))")

if let thresholdsFile {
    do {
        let (lines, passed) = try Thresholds.load(from: thresholdsFile).report([
            "route with 10,000 apps / with 1, the same URLs": same[10_000]! / same[1]!
        ])
        for line in lines { print(line) }
        if !passed { exit(1) }
    } catch {
        print("\(error) (give --thresholds FILE, or --no-thresholds)")
        exit(64)
    }
}
