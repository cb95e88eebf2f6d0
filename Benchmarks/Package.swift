// swift-tools-version: 6.1
import PackageDescription

import struct Foundation.URL

// SwiftPM names a path dependency after its folder, which differs between clones: derive it.
let contactless = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

// Benchmarks live in their own package so the library's build and tests never pull in ordo-one/benchmark.
// Run: cd Benchmarks && swift package --disable-sandbox benchmark --no-progress   (see README, "Benchmarks");
// the sandbox is off because the benchmarks read test vectors from ../Tests.
let package = Package(
    name: "ContactlessBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        // Only the malloc interposer trait: the runtime interposer is not in the local package mirror.
        .package(url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
        // The Apple Pay benchmark's floor calls swift-crypto directly (same version as the library's).
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", exact: "1.7.4"),
    ],
    targets: [
        .executableTarget(
            name: "EMVBenchmarks",
            dependencies: [
                .product(name: "EMV", package: contactless),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/EMVBenchmarks",
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"])],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ISO8583Benchmarks",
            dependencies: [
                .product(name: "EMV", package: contactless),
                .product(name: "ISO8583", package: contactless),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ISO8583Benchmarks",
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"])],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PurchaseBenchmarks",
            dependencies: [
                .product(name: "EMV", package: contactless),
                .product(name: "SmartCard", package: contactless),
                .product(name: "CardEmulator", package: contactless),
                .product(name: "ReaderKernel", package: contactless),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PurchaseBenchmarks",
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"])],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ApplePayBenchmarks",
            dependencies: [
                .product(name: "ApplePay", package: contactless),
                .product(name: "EMV", package: contactless),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ApplePayBenchmarks",
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"])],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
