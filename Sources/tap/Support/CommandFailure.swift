/// A command that cannot go on, with the one line to print (ArgumentParser prints it as `Error: …`, exit 1).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
