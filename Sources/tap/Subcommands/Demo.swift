import ArgumentParser

extension Tap {
    /// Runs the main job on embedded defaults.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Walk through an EMV contactless purchase on embedded defaults."
        )

        func run() async throws {
            print("Contactless demo")
        }
    }
}
