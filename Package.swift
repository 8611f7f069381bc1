// swift-tools-version:6.0
// Lectern: a sentence-highlighting reader daemon. See README.md and
// ../shared/ARCHITECTURE.md for the map of modules below.
import PackageDescription

let package = Package(
    name: "Lectern",
    // For LecternClient on Apple platforms (Duration, Clock); Linux ignores this.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "lecternd", targets: ["lecternd"]),
        .library(name: "LecternClient", targets: ["LecternClient"]),
    ],
    targets: [
        // MARK: C libraries from Debian's -dev packages

        .systemLibrary(
            name: "CUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev", "libfreetype-dev", "libfontconfig-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The HTTP server of lecternd's --metrics-port (GET /metrics).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // libhyphen (Debian libhyphen-dev, no pkg-config file): the TeX
        // hyphenation patterns of the hyphen-* dictionaries.
        .systemLibrary(name: "CHyphen", providers: [.apt(["libhyphen-dev"])]),
        // ICU renames every C symbol per version (ubrk_open is ubrk_open_72),
        // so Swift calls this small C shim instead of ICU's headers.
        .target(
            name: "CICU",
            linkerSettings: [
                .linkedLibrary("icui18n"),
                .linkedLibrary("icuuc"),
                .linkedLibrary("icudata"),
            ]
        ),

        // hiredis (Debian libhiredis-dev) and Lectern's libuv event
        // adapter for it (adapter.c says why it is not hiredis's own).
        .target(
            name: "CHiredis",
            dependencies: ["CUV"],
            linkerSettings: [.linkedLibrary("hiredis")]
        ),

        // MARK: Lectern's libraries

        // libuv handle ownership, shared by the daemon and the load tool.
        .target(name: "LecternUV", dependencies: ["CUV"]),
        // A Redis client on the daemon's libuv loop, through hiredis.
        .target(name: "LecternRedis", dependencies: ["CHiredis", "CUV"]),
        .target(name: "LecternText", dependencies: ["CICU"]),
        // Dictionary hyphenation through libhyphen (its one unsafe file:
        // HyphenationDictionary+Unsafe.swift).
        .target(name: "LecternHyphen", dependencies: ["CHyphen"]),
        // Rect, Point and EdgeInsets: defined once for the layout and the
        // SDK (which re-exports them), so part of the SDK's closure too.
        .target(name: "LecternGeometry", swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "LecternLayout", dependencies: ["LecternText", "LecternGeometry", "CHarfBuzz", "CICU"]),
        // LecternProtocol, LecternGeometry and LecternClient are the SDK's
        // closure: no unsafe flags (SwiftPM refuses them in a dependency
        // pinned by version) and no Linux-only import outside `#if canImport`
        // (PortabilityTests).
        .target(name: "LecternProtocol"),
        // The seeded generator of the tests, benchmarks and load tool.
        .target(name: "LecternRandom"),
        .target(name: "LecternStore", dependencies: ["CSQLite"]),
        // libmicrohttpd behind a small Swift API (the metrics endpoint):
        // its header is imported by this module only.
        .target(name: "LecternHTTP", dependencies: ["CMicroHTTPD"]),
        .target(
            name: "LecternServer",
            dependencies: ["LecternText", "LecternLayout", "LecternProtocol", "LecternStore", "LecternUV", "CUV", "LecternHTTP", "LecternRedis"]
        ),
        // The daemon driven in process, for the fuzzer and its corpus tests
        // (Fuzzing) and for bench-requests (RequestPathBenchmark): harnesses,
        // kept out of the product module; they reach the server's internals
        // through `package` access.
        .target(name: "LecternServerHarness", dependencies: ["LecternServer", "CUV"]),
        // Swift 6 mode here, so the compiler holds the SDK's public API to
        // strict Sendable checking; apps may use either mode.
        .target(name: "LecternClient", dependencies: ["LecternProtocol", "LecternGeometry"], swiftSettings: [.swiftLanguageMode(.v6)]),

        // MARK: Executables: flag parsing and wiring only

        .executableTarget(name: "lecternd", dependencies: ["LecternServer"]),
        // The fuzz target (scripts/fuzz builds it with -sanitize=fuzzer);
        // built normally, it replays corpus files.
        .executableTarget(name: "lectern-fuzz", dependencies: ["LecternServerHarness"]),
        .executableTarget(name: "store-crash-helper", dependencies: ["LecternStore", "LecternRandom"]),
        .executableTarget(
            name: "lectern-load", dependencies: ["CUV", "LecternUV", "LecternProtocol", "LecternGeometry", "LecternRandom"], path: "Sources/lectern-load"),
        .executableTarget(name: "lectern-example", dependencies: ["LecternClient"], path: "examples/lectern-example"),

        // MARK: Benchmarks (Sources/Benchmarks): programs that print figures

        // Another reader's PING latency during each abuse of issue 16; the
        // fairness tests run the same abuses (see scripts/bench-abuse).
        .executableTarget(name: "bench-abuse", path: "Sources/Benchmarks/bench-abuse"),
        // Lectern's layout against Pango: see scripts/bench-layout.
        .executableTarget(name: "bench-layout", dependencies: ["LecternLayout", "LecternRandom"], path: "Sources/Benchmarks/bench-layout"),
        // The daemon's CPU per request, in process (see BENCHMARKS.md).
        .executableTarget(name: "bench-requests", dependencies: ["LecternServerHarness"], path: "Sources/Benchmarks/bench-requests"),
        // Sentence segmentation quality and speed.
        .executableTarget(name: "bench-sentences", dependencies: ["LecternText"], path: "Sources/Benchmarks/bench-sentences"),

        // MARK: Tests

        .testTarget(name: "LecternTextTests", dependencies: ["LecternText"]),
        .testTarget(name: "LecternLayoutTests", dependencies: ["LecternLayout", "LecternRandom"]),
        .testTarget(name: "LecternProtocolTests", dependencies: ["LecternProtocol", "LecternRandom"]),
        .testTarget(
            name: "LecternLoadTests",
            // The executables are dependencies so that `swift test` builds
            // them: the load tests run lectern-load against a live lecternd.
            dependencies: ["lectern-load", "lecternd", "LecternRandom"]
        ),
        .testTarget(
            name: "LecternClientTests",
            // lecternd: the SDK is tested against a live daemon; lectern-example
            // is run against it too. Both are built beside the tests.
            dependencies: ["LecternClient", "lecternd", "lectern-example"]
        ),
        .testTarget(name: "LecternStoreTests", dependencies: ["LecternStore"]),
        .testTarget(name: "LecternHyphenTests", dependencies: ["LecternHyphen"]),
        .testTarget(name: "LecternRedisTests", dependencies: ["LecternRedis", "LecternUV", "CUV"]),
        .testTarget(
            name: "LecternServerTests",
            // Depending on the executable makes `swift test` build lecternd,
            // which the live-daemon tests start on a free loopback port.
            dependencies: ["LecternServer", "LecternServerHarness", "LecternStore", "lecternd", "LecternRandom", "bench-abuse", "LecternClient"]
        ),
    ],
    swiftLanguageModes: [.v5]
)
