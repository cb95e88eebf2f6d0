import Foundation

extension Duration {
    /// The duration in seconds, for arithmetic with `Date` (sub-second parts kept).
    var timeInterval: TimeInterval { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
