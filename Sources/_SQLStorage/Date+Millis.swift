public import Foundation

extension Date {
    /// Milliseconds since 1970, as the schema stores times.
    public var millis: Int { Int((timeIntervalSince1970 * 1000).rounded(.down)) }

    /// The date `millis` milliseconds after 1970.
    public init(millis: Int) { self.init(timeIntervalSince1970: Double(millis) / 1000) }
}
