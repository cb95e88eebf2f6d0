public import Foundation

/// The rule that a device may use at most a few distinct merchant ids in any rolling window (Apple's Tap to Pay:
/// 3 in 24 hours), so one phone can't be passed around between many merchants.
///
/// Pure: given the device's latest use of each merchant, it decides. A use counts while it is less than ``window``
/// old; at exactly ``window`` it has left.
public struct DeviceMerchantLimit: Sendable, Hashable {
    /// The limit of the gateway: 3 merchants in 24 hours.
    public static let standard = DeviceMerchantLimit(maximumMerchants: 3, window: 24 * 60 * 60)

    /// How many distinct merchants a device may use within the window.
    public var maximumMerchants: Int
    /// The rolling window.
    public var window: TimeInterval

    /// Creates a limit.
    public init(maximumMerchants: Int, window: TimeInterval) {
        self.maximumMerchants = maximumMerchants
        self.window = window
    }

    /// What the rule decides.
    public enum Decision: Sendable, Hashable {
        /// The device may use the merchant.
        case allowed
        /// It may not until `clearsAt`, when enough of its other uses leave the window.
        case blocked(clearsAt: Date)
    }

    /// Whether a device whose latest use of each merchant is `lastUses` may use `merchantId` at `now`.
    public func decide(merchantId: String, lastUses: [String: Date], now: Date) -> Decision {
        let recent = lastUses.filter { now.timeIntervalSince($0.value) < window }
        if recent[merchantId] != nil { return .allowed }
        guard recent.count >= maximumMerchants else { return .allowed }
        // Room for one more needs `count - maximum + 1` uses to leave: the earliest ones, in order.
        let leaving = recent.values.sorted()[recent.count - maximumMerchants]
        return .blocked(clearsAt: leaving.addingTimeInterval(window))
    }
}
