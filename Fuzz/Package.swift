// swift-tools-version: 6.0
// libFuzzer targets, in a package of their own so that the main package's `swift build`
// never links them: `swift build --sanitize=fuzzer` here (see scripts/fuzz.sh). Reel's
// modules are built for testing, so that a target reaches the parsers the package keeps
// to itself (`@testable import`).
import PackageDescription

let package = Package(
    name: "ReelFuzz",
    dependencies: [.package(name: "Reel", path: "..")],
    targets: [
        .executableTarget(name: "ReelFuzzVAP", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzRTP", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzSpherical", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzParameterSets", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzAnnexB", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzY4M", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzCameraPath", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzPlaylist", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzRTSP", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzManifests", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzIPC", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzRecordings", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzWebRTC", dependencies: [.product(name: "ReelCore", package: "Reel")]),
        .executableTarget(name: "ReelFuzzFraming", dependencies: [.product(name: "ReelCore", package: "Reel"), .product(name: "ReelEncoding", package: "Reel")]),
    ],
    swiftLanguageModes: [.v6]
)
