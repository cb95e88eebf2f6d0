// swift-tools-version: 6.1
import PackageDescription

// Every module opts into the same strictness; see ../shared/STYLE.md.
let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Contactless",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "EMV", targets: ["EMV"]),
        .library(name: "ISO8583", targets: ["ISO8583"]),
        .library(name: "Issuer", targets: ["Issuer"]),
        .library(name: "GatewayAPI", targets: ["GatewayAPI"]),
        .library(name: "Gateway", targets: ["Gateway"]),
        .library(name: "SmartCard", targets: ["SmartCard"]),
        .library(name: "CardEmulator", targets: ["CardEmulator"]),
        .library(name: "ValueAddedServices", targets: ["ValueAddedServices"]),
        .library(name: "ReaderKernel", targets: ["ReaderKernel"]),
        .library(name: "ApplePay", targets: ["ApplePay"]),
        .library(name: "TapToPay", targets: ["TapToPay"]),
        .library(name: "Terminal", targets: ["Terminal"]),
        .library(name: "ServerDrivenReader", targets: ["ServerDrivenReader"]),
        .library(name: "Wallet", targets: ["Wallet"]),
        .library(name: "ContactlessTesting", targets: ["ContactlessTesting"]),
        .library(name: "TestMode", targets: ["TestMode"]),
        .executable(name: "tap", targets: ["tap"]),
    ],
    dependencies: [
        // Exact versions only, as the local package mirror serves them; Package.resolved stays out of git.
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
        .package(url: "https://github.com/attaswift/BigInt.git", exact: "6.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", exact: "5.8.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", exact: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", exact: "1.7.4"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", exact: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", exact: "2.1.1"),
    ],
    targets: [
        .target(
            name: "EMV",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "BigInt", package: "BigInt"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "ISO8583",
            dependencies: ["EMV"],
            swiftSettings: strictness
        ),
        // SQL storage both the gateway and the issuer build on: the dialect, SQLite (commit groups, WAL sync,
        // checkpoints) and PostgreSQL, migrations. Internal to the package.
        .target(
            name: "_SQLStorage",
            dependencies: [
                "EMV", "SQLiteWALBuffer",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "Issuer",
            dependencies: [
                "EMV", "ISO8583", "_SQLStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "GatewayAPI",
            dependencies: ["EMV", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictness
        ),
        // SQLite's default VFS with a write-ahead log's frames written in one call per commit (C: it wraps
        // SQLite's file methods).
        .target(
            name: "SQLiteWALBuffer",
            dependencies: [.product(name: "SQLiteNIO", package: "sqlite-nio")]
        ),
        // The PSP: domain, its tables, HTTP API, the ISO 8583 link to the issuer.
        .target(
            name: "Gateway",
            dependencies: [
                "EMV", "ISO8583", "Issuer", "GatewayAPI", "ApplePay", "_SQLStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The merchant console's templates and assets, compiled into the binary.
            resources: [
                .embedInCode("Console/Templates/layout.mustache"),
                .embedInCode("Console/Templates/sign-in.mustache"),
                .embedInCode("Console/Templates/invitation.mustache"),
                .embedInCode("Console/Templates/message.mustache"),
                .embedInCode("Console/Templates/overview.mustache"),
                .embedInCode("Console/Templates/payments.mustache"),
                .embedInCode("Console/Templates/payment.mustache"),
                .embedInCode("Console/Templates/tap-to-pay.mustache"),
                .embedInCode("Console/Templates/team.mustache"),
                .embedInCode("Console/Templates/developers.mustache"),
                .embedInCode("Console/Templates/webhook.mustache"),
                .embedInCode("Console/Templates/audit.mustache"),
                .embedInCode("Console/Templates/apple-pay.mustache"),
                .embedInCode("Console/Assets/console.css"), .embedInCode("Console/Assets/console.js"),
                .embedInCode("PointOfSale/Templates/pos-layout.mustache"),
                .embedInCode("PointOfSale/Templates/pos-home.mustache"),
                .embedInCode("PointOfSale/Templates/pos-command.mustache"),
                .embedInCode("PointOfSale/Templates/pos-receipt.mustache"),
                .embedInCode("PointOfSale/Templates/pos-message.mustache"),
                .embedInCode("PointOfSale/Templates/pos-settings.mustache"),
                .embedInCode("PointOfSale/Templates/pos-help.mustache"),
                .embedInCode("PointOfSale/Assets/pos.css"), .embedInCode("PointOfSale/Assets/pos.js"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "SmartCard",
            dependencies: [
                "EMV",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        // Apple's Value Added Services (loyalty passes): the protocol, the cryptogram and the reader's step.
        .target(
            name: "ValueAddedServices",
            dependencies: ["EMV", "SmartCard", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictness
        ),
        .target(
            name: "CardEmulator",
            dependencies: ["EMV", "ValueAddedServices"],
            resources: [.copy("Profiles")],
            swiftSettings: strictness
        ),
        .target(
            name: "ReaderKernel",
            dependencies: ["EMV", "SmartCard"],
            swiftSettings: strictness
        ),
        // Apple Pay: PassKit-shaped requests, the token format, its verifier/decryptor and a test token service.
        .target(
            name: "ApplePay",
            dependencies: [
                "EMV",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictness
        ),
        // The ProximityReader-shaped merchant SDK: the reader kernel over a pluggable contactless interface, the
        // gateway's HTTP API behind a small transport protocol (AsyncHTTPClient by default).
        .target(
            name: "TapToPay",
            dependencies: [
                "EMV", "SmartCard", "ReaderKernel", "GatewayAPI", "CardEmulator", "ValueAddedServices",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictness
        ),
        // The reader the gateway drives (`tap reader`): TapToPay taking its commands from the gateway's reader hub.
        .target(
            name: "ServerDrivenReader",
            dependencies: ["TapToPay", "GatewayAPI", "EMV", "ValueAddedServices"],
            swiftSettings: strictness
        ),
        // The ECPSdk-shaped terminal facade over TapToPay: reader types, discovery, connect, sales, the merchant's
        // server behind a protocol.
        .target(
            name: "Terminal",
            dependencies: ["TapToPay", "EMV", "GatewayAPI", "SmartCard"],
            swiftSettings: strictness
        ),
        // The Thales-shaped issuer wallet SDK: digitization, digital cards, payment keys encrypted at rest, the
        // contactless payment session whose card applet any SmartCard transport serves. Never links the issuer host.
        .target(
            name: "Wallet",
            dependencies: [
                "EMV", "SmartCard", "CardEmulator", "ValueAddedServices",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictness
        ),
        // The product's test mode, like a PSP's: the test issuer attached to a gateway (what `tap serve` runs by
        // default), test cards tapped on a reader, a test wallet issuer, test clocks, load generation, and a whole
        // gateway on a loopback port with onboarded merchants (`tap demo`, `tap bench`). Never an issuer of real cards.
        .target(
            name: "TestMode",
            dependencies: [
                "EMV", "Gateway", "GatewayAPI", "Issuer", "_SQLStorage", "CardEmulator", "SmartCard", "ReaderKernel",
                "TapToPay", "Terminal", "Wallet", "ValueAddedServices",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // What only tests use: fresh SQLite and PostgreSQL databases, a wallet session's events one at a time, the
        // issuer's balance behind a test gateway (like HummingbirdTesting). `tap` never links it.
        .target(
            name: "ContactlessTesting",
            dependencies: [
                "EMV", "Gateway", "Issuer", "_SQLStorage", "CardEmulator", "SmartCard", "TestMode", "Wallet",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // The JSON-lines interface behind `tap crypto batch`, a library so its parser and dispatcher can be tested.
        .target(
            name: "CryptoBatch",
            dependencies: ["EMV"],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "tap",
            dependencies: [
                "EMV",
                "ApplePay",
                "CryptoBatch",
                "ISO8583",
                "Issuer",
                "SmartCard",
                "CardEmulator",
                "ReaderKernel",
                "Gateway",
                "GatewayAPI",
                "TestMode",
                "ServerDrivenReader",
                "_SQLStorage",
                "TapToPay",
                "Terminal",
                "Wallet",
                "ValueAddedServices",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "EMVTests",
            dependencies: ["EMV"],
            resources: [.copy("Vectors")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ValueAddedServicesTests",
            dependencies: [
                "ValueAddedServices", "CardEmulator", "EMV", "SmartCard",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ISO8583Tests",
            dependencies: ["ISO8583", "EMV"],
            resources: [.copy("Vectors")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "IssuerTests",
            dependencies: [
                "Issuer", "ISO8583", "EMV", "CardEmulator", "ReaderKernel", "SmartCard", "ContactlessTesting",
                "TestMode",
                "_SQLStorage",
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "GatewayAPITests",
            dependencies: [
                "GatewayAPI", "EMV", "ReaderKernel", "CardEmulator", "SmartCard", "TestMode",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "Gateway", "GatewayAPI", "Issuer", "ISO8583", "EMV", "ReaderKernel", "CardEmulator", "SmartCard",
                "ContactlessTesting", "ApplePay", "SQLiteWALBuffer", "TestMode", "_SQLStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ApplePayTests",
            dependencies: [
                "ApplePay", "EMV",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TapToPayTests",
            dependencies: [
                "TapToPay", "Gateway", "GatewayAPI", "Issuer", "EMV", "SmartCard", "CardEmulator", "ContactlessTesting",
                "TestMode", "Terminal", "ValueAddedServices",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TerminalTests",
            dependencies: [
                "Terminal", "TapToPay", "GatewayAPI", "Issuer", "EMV", "SmartCard", "CardEmulator",
                "ContactlessTesting", "TestMode",
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "CardEmulatorTests",
            dependencies: ["CardEmulator"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "ReaderKernelTests",
            dependencies: ["ReaderKernel", "SmartCard", "CardEmulator"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "SmartCardTests",
            dependencies: [
                "SmartCard",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "TransactionTests",
            dependencies: ["EMV", "SmartCard", "CardEmulator", "ReaderKernel"],
            resources: [.copy("Traces")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "WalletTests",
            dependencies: [
                "Wallet", "EMV", "SmartCard", "CardEmulator", "ReaderKernel", "Issuer", "ContactlessTesting",
                "TestMode", "ValueAddedServices",
                "ISO8583",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictness
        ),
        // Tests that take several modules end to end (a wallet's card paying at a Tap to Pay reader, authorized by
        // the gateway's issuer); each module's own tests stay in its target.
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "Wallet", "TapToPay", "Gateway", "Issuer", "EMV", "SmartCard", "CardEmulator", "ContactlessTesting",
                "TestMode", "_SQLStorage", "ServerDrivenReader",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "CryptoBatchTests",
            dependencies: ["CryptoBatch"],
            resources: [.copy("Vectors")],
            swiftSettings: strictness
        ),
    ],
    swiftLanguageModes: [.v6]
)
