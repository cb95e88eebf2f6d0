import EMV
import Foundation
import ISO8583
import Testing

@Suite("AuthorizationRequest, ReceivedAuthorizationRequest and AuthorizationResponse")
struct AuthorizationMessageTests {
    static let date = Date(timeIntervalSince1970: 1_795_003_600)  // 2026-11-18 12:06:40 UTC

    /// Synthetic EMV-mode card data for the Visa test PAN.
    static func card(mode: CardAuthorizationData.Mode = .emv) throws -> CardAuthorizationData {
        let pan = try PAN("4761739001010119")
        let expiry = try ExpiryDate(year: 2030, month: 12)
        let track2 = try Track2EquivalentData(pan: pan, expiry: expiry, serviceCode: "201", discretionaryData: "0001")
        let iccData = mode == .emv ? [UInt8](hex: "9F2608A1B2C3D4E5F607089F2701809F360200015F340101") ?? [] : []
        return CardAuthorizationData(
            mode: mode, iccData: iccData, pan: pan, panSequenceNumber: 1, expiry: expiry, track2: track2)
    }

    static func message(
        _ card: CardAuthorizationData, amount: Int = 1_000, type: AuthorizationRequest.TransactionType = .purchase,
        pinBlock: [UInt8]? = nil
    ) -> AuthorizationRequest {
        AuthorizationRequest(
            card: card, amount: amount, currency: .eur, type: type, systemTraceAuditNumber: 17,
            retrievalReferenceNumber: "632211000017", terminalID: "TERM1", merchantID: "MERCHANT0000001",
            transmissionDate: date, pinBlock: pinBlock)
    }

    @Test("the 0100 carries fields 2, 3, 4, 7, 11, 12, 14, 22, 23, 35, 37, 41, 42, 49, 55 and encodes")
    func request() throws {
        let card = try Self.card()
        let request = try Self.message(card).message()
        #expect(request.mti == .authorizationRequest)
        #expect(request.fieldNumbers == [2, 3, 4, 7, 11, 12, 14, 22, 23, 35, 37, 41, 42, 49, 55])
        #expect(request[.pan] == "4761739001010119")
        #expect(request[.processingCode] == "000000")
        #expect(request[.amount] == "000000001000")
        #expect(request[.transmissionDateTime] == "1118120640")
        #expect(request[.systemTraceAuditNumber] == "000017")
        #expect(request[.localTime] == "120640")
        #expect(request[.expirationDate] == "3012")
        #expect(request[.posEntryMode] == "071")
        #expect(request[.cardSequenceNumber] == "001")
        #expect(request[.track2] == "4761739001010119=30122010001")
        #expect(request[.retrievalReferenceNumber] == "632211000017")
        #expect(request[.terminalID] == "TERM1   ")
        #expect(request[.merchantID] == "MERCHANT0000001")
        #expect(request[.currencyCode] == "978")
        #expect(request[.iccData]?.bytes == card.iccData)
        let decoded = try ISO8583Message(decoding: try request.encoded(using: .contactless), using: .contactless)
        #expect(decoded.fieldNumbers == request.fieldNumbers)
    }

    @Test(
        "transaction types map to processing codes",
        arguments: [
            (AuthorizationRequest.TransactionType.purchase, 1_000, "000000"), (.refund, 1_000, "200000"),
            (.accountVerification, 0, "180000"),
        ])
    func processingCodes(type: AuthorizationRequest.TransactionType, amount: Int, code: String) throws {
        let request = try Self.message(try Self.card(), amount: amount, type: type).message()
        #expect(request[.processingCode] == .text(code))
    }

    @Test("mag-stripe mode: entry mode 911 and no field 55; a PIN block goes in field 52")
    func magStripeWithPIN() throws {
        let request = try Self.message(try Self.card(mode: .magStripe), pinBlock: Array(repeating: 0xAB, count: 16))
            .message()
        #expect(request[.posEntryMode] == "911")
        #expect(request[.iccData] == nil)
        #expect(request[.pinBlock] == .binary(Array(repeating: 0xAB, count: 16)))
        #expect(throws: Never.self) { try request.encoded(using: .contactless) }
    }

    @Test("values out of range are refused with invalidValue, naming the field and not the value")
    func invalidValues() throws {
        let card = try Self.card()
        var variants: [AuthorizationRequest] = []
        for change: (inout AuthorizationRequest) -> Void in [
            { $0.amount = -1 }, { $0.amount = 1_000_000_000_000 }, { $0.systemTraceAuditNumber = 1_000_000 },
            { $0.retrievalReferenceNumber = "1" }, { $0.terminalID = "TERMINAL9" }, { $0.terminalID = "" },
            { $0.merchantID = String(repeating: "M", count: 16) }, { $0.pinBlock = [0x01] },
            { $0.type = .accountVerification },
        ] {
            var message = Self.message(card)
            change(&message)
            variants.append(message)
        }
        for message in variants {
            #expect(throws: ISO8583Error.invalidValue) { try message.message() }
            do {
                _ = try message.message()
            } catch {
                #expect(!error.message.contains(card.pan.digits))
            }
        }
    }

    @Test("the 0400 keeps the reference, drops the card-read fields and names the original in field 90")
    func reversal() throws {
        let request = try Self.message(try Self.card(), pinBlock: Array(repeating: 0x11, count: 8)).message()
        let reversal = try AuthorizationRequest.reversal(of: request)
        #expect(reversal.mti == .reversalRequest)
        #expect(reversal.fieldNumbers == [2, 3, 4, 7, 11, 12, 37, 41, 42, 49, 90])
        let original = "0100" + "000017" + "1118120640" + String(repeating: "0", count: 22)
        #expect(reversal[AuthorizationRequest.originalDataElements] == .text(original))
        let later = try AuthorizationRequest.reversal(of: request, transmissionDate: Self.date.addingTimeInterval(61))
        #expect(later[.transmissionDateTime] == "1118120741")
        #expect(throws: Never.self) { try reversal.encoded(using: .contactless) }
        #expect(throws: ISO8583Error.invalidValue) { try AuthorizationRequest.reversal(of: reversal) }
    }

    @Test("descriptions show the masked PAN only")
    func masking() throws {
        let message = Self.message(try Self.card(), pinBlock: Array(repeating: 0x5A, count: 8))
        var dumped = ""
        dump(message, to: &dumped)
        for text in [String(describing: message), String(reflecting: message), dumped] {
            #expect(!text.contains("4761739001010119"))
            #expect(!text.contains("5A5A5A5A"))
            #expect(text.contains("476173******0119"))
        }
    }

    @Test("a 0110 reads as response code, approval code and issuer authentication data")
    func response() throws {
        var message = ISO8583Message(mti: .authorizationResponse)
        message[.responseCode] = "00"
        message[.authorizationCode] = "A1B2C3"
        message.setICCData([UInt8](hex: "910A11223344556677889900") ?? [])
        let answer = try AuthorizationResponse(message)
        #expect(answer.isApproved)
        #expect(answer.approvalCode == "A1B2C3")
        #expect(answer.issuerAuthenticationData == [UInt8](hex: "11223344556677889900"))

        var declined = ISO8583Message(mti: .authorizationResponse)
        declined[.responseCode] = "51"
        #expect(try AuthorizationResponse(declined) == AuthorizationResponse(responseCode: .insufficientFunds))

        var noCode = message
        noCode[.responseCode] = nil
        var notResponse = message
        notResponse.mti = .authorizationRequest
        var badICC = message
        badICC.setICCData([0x91, 0x0A, 0x11])
        for bad in [noCode, notResponse, badICC] {
            #expect(throws: ISO8583Error.invalidValue) { try AuthorizationResponse(bad) }
        }
    }

    @Test("what the 0100 writes, the host reads back: every field through the wire, both card modes")
    func readsBack() throws {
        for mode in [CardAuthorizationData.Mode.emv, .magStripe] {
            let card = try Self.card(mode: mode)
            let sent = try Self.message(card, amount: 123_456, pinBlock: Array(repeating: 0x11, count: 8)).message()
            let wire = try ISO8583Message(decoding: sent.encoded(using: .contactless), using: .contactless)
            let read = try ReceivedAuthorizationRequest(wire)
            #expect(read.pan == card.pan)
            #expect(read.processingCode == "000000")
            #expect(read.amount == 123_456)
            #expect(read.currencyCode == 978)
            #expect(read.expiry == card.expiry)
            #expect(read.panSequenceNumber == card.panSequenceNumber)
            #expect(read.track2 == card.track2)
            #expect(read.pinBlock == Array(repeating: 0x11, count: 8))
            #expect(read.reference.systemTraceAuditNumber == "000017")
            #expect(read.reference.retrievalReferenceNumber == "632211000017")
            #expect(read.reference.terminalID == "TERM1   ")
            #expect(read.iccData.count == (mode == .emv ? 4 : 0))
            #expect(read.tokenPaymentData == nil)
            #expect(!"\(read)".contains(card.pan.digits))
        }
    }

    @Test("the host refuses a 0100 missing a required field or with an unreadable one, naming the field")
    func readRefusals() throws {
        let sent = try Self.message(try Self.card()).message()
        for field: ISO8583Field in [
            .pan, .processingCode, .amount, .currencyCode, .systemTraceAuditNumber, .retrievalReferenceNumber,
            .terminalID,
        ] {
            var missing = sent
            missing[field] = nil
            #expect(throws: ISO8583Error.invalidValue) { try ReceivedAuthorizationRequest(missing) }
            do {
                _ = try ReceivedAuthorizationRequest(missing)
            } catch {
                #expect(error.field == field.rawValue, "field \(field.rawValue)")
            }
        }
        for (field, value): (ISO8583Field, ISO8583FieldValue) in [
            (.pan, "4761739001010118"), (.amount, "12A"), (.expirationDate, "3013"), (.cardSequenceNumber, "0A1"),
        ] {
            var bad = sent
            bad[field] = value
            do {
                _ = try ReceivedAuthorizationRequest(bad)
                Issue.record("field \(field.rawValue) should be refused")
            } catch {
                #expect(error.code == .invalidValue && error.field == field.rawValue)
                #expect(!error.message.contains("4761739001010118"))
            }
        }
        var badICC = sent
        badICC.setICCData([0x9F, 0x26, 0x08, 0x01])
        #expect(throws: ISO8583Error.invalidValue) { try ReceivedAuthorizationRequest(badICC) }
    }

    @Test("the cryptogram's amount comes from 9F02 in the currency of 5F2A")
    func cryptogramAmount() throws {
        var card = try Self.card()
        card = CardAuthorizationData(
            mode: .emv, iccData: [UInt8](hex: "9F02060000000012345F2A020978") ?? [], pan: card.pan,
            panSequenceNumber: nil, expiry: nil, track2: nil)
        let read = try ReceivedAuthorizationRequest(Self.message(card).message())
        #expect(read.cryptogramAmount == Amount(minorUnits: 1_234, currency: .eur))
        let none = try ReceivedAuthorizationRequest(Self.message(try Self.card()).message())
        #expect(none.cryptogramAmount == nil)
    }

    @Test("the response echoes the request's reference fields and reads back as written")
    func responseRoundTrip() throws {
        let request = try Self.message(try Self.card()).message()
        let written = AuthorizationResponse(
            responseCode: .approved, approvalCode: "A1B2C3", issuerAuthenticationData: [0x11, 0x22, 0x30, 0x30])
        let message = written.message(answering: request)
        #expect(message.mti == .authorizationResponse)
        #expect(message.fieldNumbers == [2, 3, 4, 7, 11, 12, 37, 38, 39, 41, 42, 49, 55])
        #expect(try AuthorizationResponse(message) == written)
        let reversal = try AuthorizationRequest.reversal(of: request)
        let acknowledged = AuthorizationResponse(responseCode: .approved).message(answering: reversal)
        #expect(
            acknowledged.mti == .reversalResponse
                && acknowledged.fieldNumbers == [2, 3, 4, 7, 11, 12, 37, 39, 41, 42, 49])
        #expect(AuthorizationReference(acknowledged) == AuthorizationReference(request))
    }
}
