// swift-tools-version: 6.1
import PackageDescription

import struct Foundation.URL

// SwiftPM names a path dependency after its folder, which differs between clones: derive it.
let contactless = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

// The Apple Pay parsers use swift-crypto, swift-certificates and swift-asn1, which swiftc alone cannot build: this
// target is a package of its own, built by scripts/test.d/30-fuzz.sh with `-sanitize=fuzzer,address` (libFuzzer
// supplies `main`, hence no main.swift).
let package = Package(
    name: "ApplePayFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "ApplePayFuzz",
            dependencies: [.product(name: "ApplePay", package: contactless)]
        )
    ]
)
