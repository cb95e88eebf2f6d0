import Foundation
import Testing

/// Where the `tap` executable that the process tests run is: `TAP_BINARY` when set, else the one `swift build` put
/// next to the test bundle (`.build/debug/tap` after `swift build --build-tests`, as scripts/test does).
enum TapBinary {
    /// The executable, nil when there is none.
    static let url: URL? = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["TAP_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        // On Darwin the tests run inside an .xctest bundle in the build directory.
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return directories.map { $0.appendingPathComponent("tap") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }()

    /// Whether the process tests run: when the binary is there, and always under CI (which then fails loudly
    /// rather than skipping).
    static let shouldRun = url != nil || ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } == true

    /// Why a process test is skipped.
    static let skipReason: Comment =
        "no tap binary next to the tests: run `swift build` (or set TAP_BINARY); under CI this fails instead"
}
