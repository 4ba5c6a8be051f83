// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "GestureBridge",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gesture-bridge", targets: ["gesture-bridge"]),
        .library(name: "GestureKit", targets: ["GestureKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11 xi xtst xfixes xext xrandr x11-xcb xcb xcb-xinput",
            providers: [.apt(["libx11-dev", "libxi-dev", "libxtst-dev", "libxfixes-dev", "libxext-dev", "libxrandr-dev",
                              "libx11-xcb-dev", "libxcb1-dev", "libxcb-xinput-dev"])]
        ),
        // Antialiased drawing for the overlay.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo cairo-xlib",
            providers: [.apt(["libcairo2-dev"])]
        ),
        // libyaml's parser: the config is read through its event API.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // Linux system interfaces Swift's Glibc module leaves out (epoll).
        .systemLibrary(name: "CLinux"),
        .target(
            name: "GestureKit",
            dependencies: ["CYAML"],
            // The built-in default config is this file, compiled in (`DefaultConfig.text`).
            resources: [.embedInCode("Config/default.yaml")]
        ),
        .target(
            name: "X11Bridge",
            dependencies: ["GestureKit", "CX11", "CCairo", "CLinux"]
        ),
        // The picture of a trace's presses (`--plot`): its layout in plain values, painted with
        // Cairo into a PNG; no X connection.
        .target(
            name: "PressPlot",
            dependencies: ["GestureKit", "CCairo"]
        ),
        .executableTarget(
            name: "gesture-bridge",
            dependencies: [
                "GestureKit",
                // X is spoken in X11Bridge alone: the command line imports no C.
                "X11Bridge",
                "PressPlot",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Engine throughput: `swift run -c release gesture-bench`.
        .executableTarget(
            name: "gesture-bench",
            dependencies: ["GestureKit", "SeededRandom"],
            path: "Benchmarks/GestureBench"
        ),
        // Latency, start-up, idle and load of the real bridge on a headless Xorg:
        // `swift run -c release gesture-measure` (root).
        .executableTarget(
            name: "gesture-measure",
            dependencies: ["XorgTestSupport", "X11Bridge", "CX11"],
            path: "Benchmarks/Measure"
        ),
        // The seeded generator the benchmark's synthetic input, the GestureKit tests and the chaos episodes draw from.
        .target(
            name: "SeededRandom",
            path: "Tests/SeededRandom"
        ),
        // Seeded random episodes against the real bridge (scripts/chaos, root).
        .target(
            name: "ChaosSupport",
            dependencies: ["XorgTestSupport", "GestureKit", "SeededRandom"],
            path: "Tests/ChaosSupport"
        ),
        .executableTarget(
            name: "gesture-chaos",
            dependencies: ["ChaosSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tests/Chaos"
        ),
        // libFuzzer targets (scripts/fuzz); built plainly they replay corpus files.
        .executableTarget(name: "fuzz-config", dependencies: ["GestureKit"], path: "Fuzz/ConfigFuzzer"),
        .executableTarget(name: "fuzz-trace", dependencies: ["GestureKit"], path: "Fuzz/TraceFuzzer"),
        // A real headless Xorg with virtual pen and touchscreen, and a window that records
        // what an application receives: support for the end-to-end tests. GestureKit for its
        // plain values only (a window's frame is a ScreenRect).
        .target(
            name: "XorgTestSupport",
            dependencies: ["CX11", "GestureKit"],
            path: "Tests/XorgTestSupport"
        ),
        // Emulated evdev nodes for the unmodified X input drivers (wacom, evdev, libinput): a
        // FUSE server in C (libfuse3's low-level API), run by the real-driver tests.
        .executableTarget(
            name: "gesture-evdev-fuse",
            path: "Tests/EvdevFuse",
            cSettings: [.unsafeFlags(["-Wall", "-Wextra"])],
            linkerSettings: [.linkedLibrary("fuse3"), .linkedLibrary("pthread")]
        ),
        // Tests/PreloadShims: stat_shim.c, the LD_PRELOAD library the libinput tests put into
        // their Xorg, fsync_gate.c, which holds a bridge's fsync for the slow-disk tests, and
        // flock_fails.c, a home without file locks, are
        // no targets: SwiftPM links every shared library it makes against the Swift runtime
        // (swiftrt.o needs libswiftCore), which would load the runtime and libstdc++ into the X
        // server. The test support compiles them with the system C compiler instead
        // (PreloadShim), into .build/real-drivers.
        .testTarget(
            name: "GestureKitTests",
            dependencies: ["GestureKit", "SeededRandom"],
            exclude: ["Fixtures"]
        ),
        // Runs the built `gesture-bridge` executable as a user would.
        .testTarget(
            name: "CLITests",
            dependencies: ["gesture-bridge", "XorgTestSupport"]
        ),
        .testTarget(
            name: "XorgTestSupportTests",
            dependencies: ["XorgTestSupport", "CX11"]
        ),
        .testTarget(
            name: "PressPlotTests",
            dependencies: ["PressPlot", "GestureKit", "CCairo"]
        ),
        .testTarget(
            name: "ChaosSupportTests",
            dependencies: ["ChaosSupport"]
        ),
        .testTarget(
            name: "X11BridgeTests",
            dependencies: ["X11Bridge", "GestureKit", "XorgTestSupport", "CX11", "gesture-evdev-fuse"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
