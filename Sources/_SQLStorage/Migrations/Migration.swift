/// One versioned step of a schema: statements run in one transaction and recorded with their version.
public struct Migration: Sendable {
    /// The step's version: steps run in increasing order, each once.
    public let version: Int
    /// What the step does, for the record and logs.
    public let name: String
    /// The statements, in the database's dialect.
    public let statements: @Sendable (SQLDialect) -> [String]

    /// Creates a step.
    public init(version: Int, name: String, statements: @escaping @Sendable (SQLDialect) -> [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}
