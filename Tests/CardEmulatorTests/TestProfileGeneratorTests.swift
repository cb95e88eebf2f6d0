import CardEmulator
import EMV
import Foundation
import Testing

/// The shipped profiles are the generator's output: regenerate them with
/// `CARD_PROFILES_REGENERATE=1 swift test --filter CardEmulatorTests.TestProfileGeneratorTests`.
@Suite struct TestProfileGeneratorTests {
    static var regenerate: Bool { ProcessInfo.processInfo.environment["CARD_PROFILES_REGENERATE"] == "1" }

    /// The profiles directory in the source tree, found from this file's path.
    static var profilesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CardEmulator/Profiles")
    }

    @Test(.enabled(if: regenerate)) func writeShippedProfiles() throws {
        let output = try TestProfileGenerator.generate()
        try TestProfileGenerator.write(output, to: Self.profilesDirectory)
    }
}
