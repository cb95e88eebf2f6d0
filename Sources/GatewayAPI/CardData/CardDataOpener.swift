public import Crypto
public import Foundation

/// The PSP side: opens sealed card data once, within its age limit, for the merchant and device that read it.
///
/// Holds the PSP's private keys by key id; rotating keeps the old ones until no data sealed to them can still be
/// in flight (60 s plus skew after the last reader switched), so a rotation never fails a tap.
///
/// Checks, in this order, so the cheapest refusal comes first and nothing is decrypted for the wrong caller:
/// 1. the clear merchant and device ids match the caller's, else ``GatewayAPIError/Code/forbidden``
///    (no decryption, and another merchant cannot burn someone else's read);
/// 2. the key id is known, HPKE opens the ciphertext with the ids as authenticated data, the payload decodes and
///    repeats the same ids, else ``GatewayAPIError/Code/cardDataInvalid``;
/// 3. `createdAt` is at most ``maximumAge`` old, else ``GatewayAPIError/Code/cardDataExpired``, and at most
///    ``allowedClockSkew`` in the future, else ``GatewayAPIError/Code/cardDataInvalid``;
/// 4. the replay store records the read id for the first time, else ``GatewayAPIError/Code/cardDataReplayed``.
///
/// Only a read that passes every check is recorded: a rejected read that is authentic (expired) can never pass
/// step 3 again, so burning it would add nothing, and an unauthenticated one must not be able to burn a real read.
/// The decrypted plaintext lives only inside ``open(_:merchantId:deviceId:)`` and is returned only on success;
/// errors carry no card data.
public struct CardDataOpener: Sendable {
    /// How long after `createdAt` sealed card data may be opened.
    public static let maximumAge: TimeInterval = 60
    /// How far in the future `createdAt` may be: readers' clocks (phones on network time) drift by seconds, and a
    /// few seconds ahead is harmless; beyond it the data is refused rather than given a longer life.
    public static let allowedClockSkew: TimeInterval = 5

    private let privateKeys: [String: CardDataRecipientKey]
    private let replayStore: any SealedCardDataReplayStore
    private let clock: @Sendable () -> Date

    /// Creates an opener.
    ///
    /// - Parameters:
    ///   - privateKeys: the PSP's private keys by key id: the current one and any retired ones still accepted.
    ///   - replayStore: where opened reads are recorded (the gateway's database).
    ///   - clock: the current time (injected for tests).
    public init(
        privateKeys: [String: P256.KeyAgreement.PrivateKey], replayStore: any SealedCardDataReplayStore,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        let info = Array(SealedCardData.protocolInfo.utf8)
        self.privateKeys = privateKeys.mapValues { CardDataRecipientKey($0, info: info) }
        self.replayStore = replayStore
        self.clock = clock
    }

    /// The key ids this opener accepts.
    public var keyIds: Set<String> { Set(privateKeys.keys) }

    /// Opens `sealed` for the caller identified by `merchantId` and `deviceId`.
    ///
    /// - Returns: the payload; its read id is now recorded as opened.
    /// - Throws: ``GatewayAPIError`` with code ``GatewayAPIError/Code/forbidden``,
    ///   ``GatewayAPIError/Code/cardDataInvalid``, ``GatewayAPIError/Code/cardDataExpired`` or
    ///   ``GatewayAPIError/Code/cardDataReplayed`` (see the type's discussion for the order).
    public func open(
        _ sealed: SealedCardData, merchantId: String, deviceId: String
    ) async throws(GatewayAPIError) -> CardDataPayload {
        let payload = try check(sealed, merchantId: merchantId, deviceId: deviceId)
        let now = clock()
        let recorded: Bool
        do {
            recorded = try await replayStore.recordOpened(
                readId: payload.readId, expiresAt: payload.createdAt.addingTimeInterval(Self.maximumAge), now: now)
        } catch {
            // Fail closed: when the store cannot say the read is new, it is not opened.
            throw GatewayAPIError(code: .cardDataReplayed, message: "the read could not be recorded as opened")
        }
        guard recorded else {
            throw GatewayAPIError(code: .cardDataReplayed, message: "the card data was already opened")
        }
        return payload
    }

    /// Steps 1–3 of ``open(_:merchantId:deviceId:)`` without the replay store: the payload of data that is the
    /// caller's, opens, and is fresh. The caller must then record ``CardDataPayload/readId`` as opened itself, in the
    /// same transaction as what it does with the data (so a read is spent exactly when its payment is stored), and
    /// refuse it when it was recorded before.
    /// - Throws: ``GatewayAPIError`` with code ``GatewayAPIError/Code/forbidden``,
    ///   ``GatewayAPIError/Code/cardDataInvalid`` or ``GatewayAPIError/Code/cardDataExpired``.
    public func check(
        _ sealed: SealedCardData, merchantId: String, deviceId: String
    ) throws(GatewayAPIError) -> CardDataPayload {
        guard sealed.merchantId == merchantId, sealed.deviceId == deviceId else {
            throw GatewayAPIError(code: .forbidden, message: "the card data was read for another merchant or device")
        }
        guard let privateKey = privateKeys[sealed.keyId] else {
            throw GatewayAPIError(code: .cardDataInvalid, message: "the card data is sealed to an unknown key id")
        }
        let payload = try Self.decrypt(sealed, with: privateKey)
        let now = clock()
        let age = now.timeIntervalSince(payload.createdAt)
        guard age <= Self.maximumAge else {
            // No number in the message: a hostile createdAt could be out of Int's range.
            throw GatewayAPIError(code: .cardDataExpired, message: "the card data is older than 60 s")
        }
        guard age >= -Self.allowedClockSkew else {
            throw GatewayAPIError(code: .cardDataInvalid, message: "the card data was created in the future")
        }
        return payload
    }

    /// HPKE-opens and decodes; every failure is ``GatewayAPIError/Code/cardDataInvalid`` with a fixed message (the
    /// underlying errors are dropped: a decoding error could quote the plaintext).
    private static func decrypt(
        _ sealed: SealedCardData, with privateKey: CardDataRecipientKey
    ) throws(GatewayAPIError) -> CardDataPayload {
        let plaintext: Data
        do {
            plaintext = try privateKey.open(
                sealed.ciphertext, encapsulatedKey: sealed.encapsulatedKey, authenticating: sealed.authenticatedData)
        } catch {
            throw GatewayAPIError(code: .cardDataInvalid, message: "the card data could not be decrypted")
        }
        guard
            let payload = try? JSONDecoder.cardData.decode(CardDataPayload.self, from: plaintext)
        else {
            throw GatewayAPIError(code: .cardDataInvalid, message: "the decrypted card data is malformed")
        }
        guard payload.readId == sealed.readId, payload.deviceId == sealed.deviceId,
            payload.merchantId == sealed.merchantId
        else {
            throw GatewayAPIError(
                code: .cardDataInvalid, message: "the sealed identifiers do not match the card data")
        }
        return payload
    }
}
