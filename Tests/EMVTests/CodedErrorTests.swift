import EMV
import Testing

/// The behaviour every error struct gets from `CodedError`: equality by code, `catch Type.code` matching, one
/// description format, and code names that scripts may rely on.
@Suite struct CodedErrorTests {
    @Test func equalityAndHashingCompareCodesOnly() {
        let a = TLVError(code: .truncatedTag, offset: 3, message: "one", file: "A.swift", line: 1)
        let b = TLVError(code: .truncatedTag, offset: 9, message: "two", file: "B.swift", line: 2)
        #expect(a == b && a == .truncatedTag && a != .truncatedLength)
        #expect(Set([a, b]).count == 1)
        #expect(CryptoError(.invalidPIN, "x") == .invalidPIN)
        #expect(ODAError(.expired, "x") != .revoked)
    }

    @Test func descriptionNamesDomainCodeOffsetAndMessage() {
        #expect(
            TLVError(code: .lengthExceedsData, offset: 4, message: "9F02 needs 6 bytes").description
                == "TLVError.lengthExceedsData at offset 4: 9F02 needs 6 bytes")
        #expect(APDUError(code: .dataTooLong, offset: nil, message: "m").description == "APDUError.dataTooLong: m")
        #expect(
            ValueError(code: .invalidDigit, offset: 2, message: "m").description
                == "ValueError.invalidDigit at offset 2: m")
        #expect(CryptoError(.invalidPINBlock, "m").description == "CryptoError.invalidPINBlock: m")
        #expect(ODAError(.hashMismatch, "m").description == "ODAError.hashMismatch: m")
        // Errors that are not about a position in an input have none.
        #expect(CryptoError(.invalidPIN, "m").offset == nil && ODAError(.expired, "m").offset == nil)
    }

    @Test func catchMatchesByCode() {
        func classify(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "none"
            } catch TLVError.truncatedTag {
                return "tlv"
            } catch CryptoError.invalidPIN {
                return "pin"
            } catch ODAError.expired {
                return "expired"
            } catch {
                return "other"
            }
        }
        #expect(classify { _ = try TLV.parse([0x9F]) } == "tlv")
        #expect(classify { throw CryptoError(.invalidPIN, "m") } == "pin")
        #expect(classify { throw ODAError(.expired, "m") } == "expired")
        #expect(classify { throw ODAError(.revoked, "m") } == "other")
        #expect(classify {} == "none")
    }

    /// `tap crypto batch` prints these names as error codes: renaming one breaks its callers.
    @Test func cryptoErrorCodeNamesAreStable() {
        let codes: [(CryptoError, String)] = [
            (.invalidKeyLength, "invalidKeyLength"), (.invalidKeyVariant, "invalidKeyVariant"),
            (.invalidDataLength, "invalidDataLength"), (.invalidIVLength, "invalidIVLength"),
            (.invalidMACLength, "invalidMACLength"), (.invalidPIN, "invalidPIN"), (.invalidPAN, "invalidPAN"),
            (.invalidPINBlock, "invalidPINBlock"), (.invalidPINBlockFormat, "invalidPINBlockFormat"),
            (.invalidPINBlockFill, "invalidPINBlockFill"), (.invalidFieldLength, "invalidFieldLength"),
            (.invalidParameter, "invalidParameter"),
        ]
        for (error, name) in codes { #expect(error.code.description == name) }
    }
}
