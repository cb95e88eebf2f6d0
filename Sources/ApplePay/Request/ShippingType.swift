/// How the order reaches the customer, as PassKit's `PKShippingType`: it changes the sheet's wording.
public enum ShippingType: String, Hashable, Sendable, Codable, CaseIterable {
    /// Shipped by a carrier (the default).
    case shipping
    /// Delivered by the merchant.
    case delivery
    /// Picked up by the customer at a store.
    case storePickup
    /// Picked up by the customer at a service location.
    case servicePickup
}
