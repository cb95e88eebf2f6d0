/// Where a payment is in its life.
public enum PaymentStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Sent to the issuer, no answer yet (a crash here is reversed at restart).
    case processing
    /// The issuer asks for the cardholder's online PIN: send a PIN block within 55 s of the read.
    case requiresPIN
    /// Authorised, waiting for capture (manual capture).
    case requiresCapture
    /// Captured (fully or partly); refunds go against the captured amount.
    case succeeded
    /// The issuer declined; ``Payment/failureCode`` says why.
    case declined
    /// Voided before capture: the authorisation was reversed at the issuer.
    case canceled
    /// Not completed: the issuer did not answer (``GatewayAPIError/Code/issuerUnavailable``, reversed) or the PIN
    /// window passed.
    case failed
}

/// When an authorised payment is captured.
public enum CaptureMethod: String, Sendable, Hashable, Codable {
    /// Captured as soon as the issuer approves.
    case automatic
    /// Authorised only; the merchant captures (all or part) later, or voids.
    case manual
}

/// What a payment is for.
public enum PaymentKind: String, Sendable, Hashable, Codable {
    /// A purchase of the amount.
    case purchase
    /// A card verification without an amount (look up, save card, open tab): an authorisation of zero.
    case verification
}

/// Why a card is verified without an amount (ProximityReader's `PaymentCardVerificationRequest.Reason`).
public enum VerificationReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// Look up the cardholder's account or earlier payments.
    case lookUp
    /// Open a tab to charge later.
    case openTab
    /// Save the card for later payments.
    case saveCard
    /// Another reason.
    case other
}
