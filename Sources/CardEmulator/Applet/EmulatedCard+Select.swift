import EMV

extension EmulatedCard {
    /// SELECT by DF name (EMV Book 1, 11.3): the PPSE, the PSE or an application by full or partial AID.
    ///
    /// P1 must be 04 (by name) and P2 00 (first) or 02 (next occurrence of a partial name), else 6A86; a name
    /// nothing matches answers 6A82 and leaves nothing selected.
    mutating func select(_ command: CommandAPDU) -> ResponseAPDU {
        guard command.p1 == 0x04, command.p2 == 0x00 || command.p2 == 0x02 else {
            return Self.status(CardStatus.wrongParameters)
        }
        let name = command.data
        let previous = selection
        selection = .none
        transaction = Transaction()
        guard !name.isEmpty, name.count <= 16 else { return Self.status(CardStatus.fileNotFound) }
        if name == CommandAPDU.proximityPaymentSystemEnvironment, command.p2 == 0x00 {
            selection = .ppse
            return Self.success(image.ppseFCI)
        }
        if name == CommandAPDU.paymentSystemEnvironment, command.p2 == 0x00 {
            selection = .pse
            return Self.success(image.pseFCI)
        }
        // Partial selection: the applications whose AID starts with the name, in order; "next" moves past the one
        // selected before.
        let matches = image.applications.indices.filter { image.applications[$0].aid.starts(with: name) }
        let index: Int?
        if command.p2 == 0x02, case .application(let current) = previous {
            index = matches.first { $0 > current }
        } else {
            index = command.p2 == 0x00 ? matches.first : nil
        }
        guard let index else { return Self.status(CardStatus.fileNotFound) }
        selection = .application(index)
        return Self.success(image.applications[index].fci)
    }

    /// READ RECORD (EMV Book 3, 6.5.11): P2 = SFI << 3 | 4. The PSE's directory file is SFI 1 while the PSE is
    /// selected; otherwise the selected application's files. 6A82 for a file the card lacks, 6A83 for a record.
    mutating func readRecord(_ command: CommandAPDU) -> ResponseAPDU {
        let sfi = command.p2 >> 3
        guard command.p2 & 0x07 == 0x04, command.p1 != 0, sfi != 0 else {
            return Self.status(CardStatus.wrongParameters)
        }
        switch selection {
        case .none, .ppse:
            return Self.status(CardStatus.wrongState)
        case .pse:
            guard sfi == 1 else { return Self.status(CardStatus.fileNotFound) }
            let index = Int(command.p1) - 1
            guard index < image.pseRecords.count else { return Self.status(CardStatus.recordNotFound) }
            return Self.success(image.pseRecords[index])
        case .application:
            if let record = image.records[CardImage.recordKey(sfi: sfi, number: command.p1)] {
                return Self.success(record)
            }
            let fileExists = image.records.keys.contains { $0 >> 8 == UInt16(sfi) }
            return Self.status(fileExists ? CardStatus.recordNotFound : CardStatus.fileNotFound)
        }
    }

    /// GET DATA (EMV Book 3, 6.5.7) for the ATC (9F36), PIN try counter (9F17), last online ATC register (9F13) and
    /// log format (9F4F); 6A88 for any other tag or one the card lacks.
    mutating func getData(_ command: CommandAPDU) -> ResponseAPDU {
        guard case .application = selection else { return Self.status(CardStatus.wrongState) }
        let tag = Tag(rawValue: UInt32(command.p1) << 8 | UInt32(command.p2))
        let value: [UInt8]
        switch tag {
        case .applicationTransactionCounter:
            let atc = lastATC ?? 0
            value = [UInt8(atc >> 8), UInt8(truncatingIfNeeded: atc)]
        case 0x9F17:
            guard image.offlinePINDigits != nil else { return Self.status(CardStatus.dataNotFound) }
            value = [pinTriesRemaining]
        case 0x9F13:
            value = [UInt8(lastOnlineATC >> 8), UInt8(truncatingIfNeeded: lastOnlineATC)]
        case 0x9F4F:
            guard let logFormat = image.logFormat else { return Self.status(CardStatus.dataNotFound) }
            value = logFormat
        default:
            return Self.status(CardStatus.dataNotFound)
        }
        return Self.encode { try $0.append(tag: tag, value: value) }
    }

    /// VERIFY with a plaintext offline PIN (EMV Book 3, 6.5.12), for contact tools: P2 80 only (6A86 otherwise), an
    /// 8-byte PIN block (6700 otherwise); 63Cx with the tries left on a wrong PIN, 6983 once blocked.
    mutating func verify(_ command: CommandAPDU) -> ResponseAPDU {
        guard command.p1 == 0x00, command.p2 == CommandAPDU.PINFormat.plaintext.rawValue else {
            return Self.status(CardStatus.wrongParameters)
        }
        guard case .application = selection, transaction.phase == .processing else {
            return Self.status(CardStatus.wrongState)
        }
        guard let pin = image.offlinePINDigits else { return Self.status(CardStatus.dataNotFound) }
        guard command.data.count == 8 else { return Self.status(CardStatus.wrongLength) }
        guard pinTriesRemaining > 0 else { return Self.status(CardStatus.pinBlocked) }
        guard let presented = Self.plaintextPINDigits(command.data) else { return Self.status(CardStatus.incorrectData) }
        // Compare every digit whatever the earlier ones were.
        var difference = presented.count ^ pin.count
        for index in 0..<min(presented.count, pin.count) { difference |= Int(presented[index] ^ pin[index]) }
        if difference == 0 {
            pinTriesRemaining = image.pinTryLimit
            transaction.offlinePINVerified = true
            return Self.status(.success)
        }
        pinTriesRemaining -= 1
        transaction.offlinePINFailed = true
        return Self.status(.verificationFailed(triesLeft: Int(pinTriesRemaining)))
    }

    /// The digits of a plaintext PIN block `2N PP … FF`; nil when it is not one.
    static func plaintextPINDigits(_ block: [UInt8]) -> [UInt8]? {
        guard block.count == 8, block[0] >> 4 == 0x2 else { return nil }
        let length = Int(block[0] & 0x0F)
        guard (4...12).contains(length) else { return nil }
        let nibbles = block.dropFirst().flatMap { [$0 >> 4, $0 & 0x0F] }
        let digits = Array(nibbles.prefix(length))
        guard digits.allSatisfy({ $0 <= 9 }), nibbles.dropFirst(length).allSatisfy({ $0 == 0xF }) else { return nil }
        return digits
    }
}
