// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "draftline",
    products: [
        .executable(name: "draftline", targets: ["draftline"]),
        .library(name: "DraftKit", targets: ["DraftKit"]),
    ],
    targets: [
        // libedit, through a module map and `static inline` shims for its C-variadic calls.
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // The only Swift code that calls libedit.
        .target(name: "LineEditor", dependencies: ["CEditLine"]),
        // The core: drafts, messages, history, screens and commands. No terminal, no libedit.
        .target(name: "DraftKit"),
        // A thin executable that wires the core to the line editor.
        .executableTarget(name: "draftline", dependencies: ["DraftKit", "LineEditor"]),

        // The benchmark: `swift run -c release draftline-bench` (see `--help`).
        .executableTarget(name: "draftline-bench", dependencies: ["DraftKit", "DraftlineTestSupport", "draftline"]),

        // Examples: small programs run with `swift run <name>`.
        .executableTarget(name: "draft-rules", dependencies: ["DraftKit"], path: "Examples/draft-rules"),
        .executableTarget(name: "history-reader", dependencies: ["DraftKit"], path: "Examples/history-reader"),

        // The properties the fuzzers in Fuzz/ check (`make fuzz`); the tests run a seeded pass.
        .target(name: "DraftKitFuzzing", dependencies: ["DraftKit"]),

        // Tests.
        .target(name: "DraftlineTestSupport", dependencies: ["DraftKit"], path: "Tests/DraftlineTestSupport"),
        .testTarget(name: "DraftKitTests", dependencies: ["DraftKit", "DraftKitFuzzing", "DraftlineTestSupport"]),
        .testTarget(
            name: "DraftlineEndToEndTests",
            dependencies: [
                "DraftKit", "DraftKitFuzzing", "DraftlineTestSupport", "draftline", "history-reader", "draft-rules",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
