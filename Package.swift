// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Reel",
    platforms: [.macOS(.v15)],
    products: [
        // The umbrella: every library product below, re-exported.
        .library(name: "Reel", targets: ["Reel"]),
        // Player, probe, decode, frame tap, outputs; FFmpeg and GStreamer engines.
        .library(name: "ReelPlayer", targets: ["ReelPlayer"]),
        // Reel's RTP receiver (transports, SRTP); the only product with SwiftNIO.
        .library(name: "ReelRTP", targets: ["ReelRTP"]),
        // Real-time H.264/H.265 encoding to files, RTP, RTMP, SRT.
        .library(name: "ReelEncoding", targets: ["ReelEncoding"]),
        // Tencent's VAP alpha animations.
        .library(name: "ReelVAP", targets: ["ReelVAP"]),
        // 360° video: the viewport output and equirectangular export.
        .library(name: "ReelPanorama", targets: ["ReelPanorama"]),
        .library(name: "ReelCore", targets: ["ReelCore"]),
        .library(name: "ReelSDL", targets: ["ReelSDL"]),
        .executable(name: "reel", targets: ["reel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Layer 1: Swift, and kernels of its own in C; no C library.
        .target(name: "ReelCore", dependencies: ["ReelPixelKernels"]),
        // ReelCore's vector kernels in C (no library): instructions Swift cannot ask for.
        .target(name: "ReelPixelKernels"),

        // Layer 2: C libraries and their thin adapters.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavfilter libavutil libswscale libswresample",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavfilter-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]
        ),
        .systemLibrary(name: "CSDL2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CSRTP", pkgConfig: "libsrtp2", providers: [.apt(["libsrtp2-dev"])]),
        .systemLibrary(name: "CSocket"),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(name: "ReelText", dependencies: ["ReelCore", "CFreeType"]),
        .systemLibrary(name: "CLibass", pkgConfig: "libass", providers: [.apt(["libass-dev"])]),
        .target(name: "ReelSubtitles", dependencies: ["ReelCore", "CLibass", .product(name: "Logging", package: "swift-log")]),
        .target(name: "ReelSDL", dependencies: ["ReelCore", "ReelFFmpeg", "ReelText", "CSDL2"]),
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-1.0 gstreamer-app-1.0 gstreamer-video-1.0 gstreamer-audio-1.0 gstreamer-tag-1.0 gstreamer-sdp-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        .target(name: "ReelGStreamer", dependencies: ["ReelCore", "ReelFFmpeg", "CGStreamer", "CGio"]),
        .target(
            name: "ReelFFmpeg",
            dependencies: ["ReelCore", "CFFmpeg", .product(name: "Logging", package: "swift-log")]
        ),
        .systemLibrary(name: "CGio", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "ReelDBus", dependencies: ["ReelCore", "CGio"]),

        // Layer 3: the public API, a product per domain (see the architecture page). Each
        // target names every module it imports, re-exported or not: SwiftPM rebuilds a target
        // when a direct dependency's module changes, and a change to ReelFFmpeg's layouts
        // alone left targets that reached it through ReelPlayer stale (they crashed).
        .target(
            name: "ReelPlayer",
            dependencies: ["ReelCore", "ReelFFmpeg", "ReelGStreamer", "ReelText", "ReelSubtitles", "ReelDBus", "CSocket", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "ReelRTPLoader"),
        .target(
            name: "ReelRTP",
            dependencies: [
                "ReelPlayer", "ReelCore", "ReelFFmpeg", "ReelRTPLoader", "CSRTP", "CSocket",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(name: "ReelEncoding", dependencies: ["ReelPlayer", "ReelCore", "ReelFFmpeg", "ReelGStreamer", "ReelText", "CSocket"]),
        .target(name: "ReelVAP", dependencies: ["ReelPlayer", "ReelCore", "ReelFFmpeg", "ReelText"]),
        .target(name: "ReelPanorama", dependencies: ["ReelPlayer", "ReelCore", "ReelFFmpeg"]),
        .target(name: "Reel", dependencies: ["ReelPlayer", "ReelRTP", "ReelEncoding", "ReelVAP", "ReelPanorama"]),

        // Layer 4: the command line.
        .executableTarget(
            name: "reel",
            dependencies: [
                "Reel",
                "ReelSDL",
                "ReelPlayer",
                "ReelCore",
                "ReelFFmpeg",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Benchmarks that compare Reel with its peers in one process.
        .executableTarget(name: "reel-bench", dependencies: ["Reel", "ReelPlayer", "ReelCore", "ReelFFmpeg", "CFFmpeg"]),

        // Examples: small programs on the public API alone, built and run by the tests; each
        // depends on the one product it needs.
        .executableTarget(name: "example-player", dependencies: ["ReelPlayer", "ReelSDL"], path: "Examples/Player"),
        .executableTarget(name: "example-rtp-recorder", dependencies: ["ReelRTP"], path: "Examples/RTPRecorder"),
        .executableTarget(name: "example-vap-greeting", dependencies: ["ReelVAP"], path: "Examples/VAPGreeting"),
        .executableTarget(name: "example-camera-rtp", dependencies: ["ReelEncoding"], path: "Examples/CameraToRTP"),
        .executableTarget(name: "example-luma-histogram", dependencies: ["ReelPlayer"], path: "Examples/LumaHistogram"),
        .executableTarget(name: "example-camera-wall", dependencies: ["ReelPlayer"], path: "Examples/CameraWall"),

        .testTarget(name: "ReelCoreTests", dependencies: ["ReelCore"]),
        // The player's logic on a manual clock with a scripted engine: milliseconds, no devices.
        .testTarget(name: "ReelPlayerTests", dependencies: ["ReelPlayer", "ReelCore", "ReelFFmpeg"]),
        .testTarget(
            name: "ReelIntegrationTests",
            dependencies: [
                "Reel", "ReelPlayer", "ReelCore", "ReelFFmpeg", "ReelGStreamer", "reel", "example-player", "example-rtp-recorder", "example-vap-greeting", "example-camera-rtp", "example-luma-histogram", "example-camera-wall",
            ],
            // The tests' Python servers, run by path.
            exclude: ["Support/rtsp-server.py", "Support/rtsp-stale-nonce-proxy.py", "Support/rtsp-capture.py", "Support/webrtc-server.py", "Support/wall-server.py", "Support/onvif-server.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
