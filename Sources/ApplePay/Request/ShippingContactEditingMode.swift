/// Whether the customer may edit the shipping contact, as PassKit's `PKShippingContactEditingMode`.
public enum ShippingContactEditingMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// The customer can edit the shipping contact (PassKit's `available`, formerly `enabled`).
    case available
    /// The shipping contact is a store's address and cannot be edited.
    case storePickup
}
