import EMV
import Testing

@Suite struct TagDictionaryTests {
    let dictionary = TagDictionary.standard

    @Test func coversAtLeast150Tags() {
        #expect(dictionary.tags.count >= 150)
        #expect(dictionary.entries(for: .generic).count >= 120)
        #expect(dictionary.entries(for: .c2).count > dictionary.entries(for: .generic).count)
    }

    @Test func everyEntryIsConsistent() {
        for kernel in [Kernel.generic, .c2, .c3, .c4] {
            for entry in dictionary.entries(for: kernel) {
                #expect(entry.tag.isWellFormed, "\(entry)")
                #expect(!entry.name.isEmpty)
                #expect(entry.kernel == .generic || entry.kernel == kernel)
                if let length = entry.length { #expect(length.lowerBound >= 0 && length.upperBound <= 261, "\(entry)") }
                // Templates carry other objects, so their format is the structure of those objects.
                if entry.isConstructed { #expect(entry.format == .variable, "\(entry)") }
                if entry.isDataObjectList { #expect(entry.format == .binary && !entry.isConstructed, "\(entry)") }
            }
        }
    }

    @Test(
        arguments: [
            (0x9F66, .c3, "Terminal Transaction Qualifiers (TTQ)"),
            (0x9F66, .c2, "Track 2 Bit Map for UN and ATC (PUNATC(Track2))"),
            (0x9F66, .generic, "Terminal Transaction Qualifiers (TTQ)"),
            (0x9F69, .c2, "UDOL"),
            (0x9F69, .c3, "Card Authentication Related Data"),
            (0x9F6C, .c2, "Mag-stripe Application Version Number (Card)"),
            (0x9F6C, .c3, "Card Transaction Qualifiers (CTQ)"),
            (0x9F5D, .c2, "Application Capabilities Information"),
            (0x9F5D, .c3, "Available Offline Spending Amount (AOSA)"),
            (0x9F6E, .c2, "Third Party Data"),
            (0x9F6E, .c3, "Form Factor Indicator (FFI)"),
            (0x9F6E, .c4, "Enhanced Contactless Reader Capabilities"),
            (0x9F6B, .c2, "Track 2 Data"),
            (0x9F6B, .c3, "Card CVM Limit"),
            (0x9F7C, .c2, "Merchant Custom Data"),
            (0x9F7C, .c3, "Customer Exclusive Data (CED)"),
            (0x9F5B, .c2, "DSDOL"),
            (0x9F5B, .c3, "Issuer Script Results"),
            (0x9F6D, .c2, "Mag-stripe Application Version Number (Reader)"),
            (0x9F6D, .c4, "Contactless Reader Capabilities"),
            (0x82, .c3, "Application Interchange Profile (AIP)"),
            (0x82, .c2, "Application Interchange Profile (AIP)"),
            (0xDF8129, .c2, "Outcome Parameter Set"),
        ] as [(Tag, Kernel, String)])
    func kernelSpecificMeanings(tag: Tag, kernel: Kernel, name: String) {
        #expect(dictionary.info(for: tag, kernel: kernel)?.name == name)
    }

    @Test func tagsOnlySomeKernelsDefineHaveNoGenericMeaning() {
        #expect(dictionary.info(for: .cardTransactionQualifiers) == nil)
        #expect(dictionary.meanings(of: .cardTransactionQualifiers).map(\.kernel) == [.c2, .c3])
        #expect(dictionary.info(for: .outcomeParameterSet, kernel: .c3) == nil)
        #expect(dictionary.info(for: 0xDF7F) == nil && dictionary.meanings(of: 0xDF7F).isEmpty)
    }

    @Test func formatsFollowTheSpecifications() {
        let expected: [(Tag, Kernel, DataFormat)] = [
            (.amountAuthorised, .generic, .numeric), (.applicationPAN, .generic, .compressedNumeric),
            (.applicationLabel, .generic, .alphanumericSpecial), (.applicationInterchangeProfile, .generic, .binary),
            (.authorisationResponseCode, .generic, .alphanumeric), (0x5F55, .generic, .alphabetic),
            (.applicationFileLocator, .generic, .variable), (.track2EquivalentData, .generic, .binary),
            (.availableOfflineSpendingAmount, .c3, .numeric), (.applicationCapabilitiesInformation, .c2, .binary),
            (0xDF8124, .c2, .numeric), (0x9F6A, .c2, .numeric),
        ]
        for (tag, kernel, format) in expected {
            #expect(dictionary.format(of: tag, kernel: kernel) == format, "\(tag) for \(kernel)")
        }
        #expect(dictionary.format(of: 0xDF7F) == .binary)
    }

    @Test func sourcesAndLengths() {
        #expect(dictionary.info(for: .applicationPAN)?.source == .card)
        #expect(dictionary.info(for: .unpredictableNumber)?.source == .terminal)
        #expect(dictionary.info(for: .issuerAuthenticationData)?.source == .issuer)
        #expect(dictionary.info(for: .outcomeParameterSet, kernel: .c2)?.source == .kernel)
        #expect(dictionary.info(for: .amountAuthorised)?.length == 6...6)
        #expect(dictionary.info(for: .applicationIdentifier)?.length == 5...16)
        #expect(dictionary.info(for: .pdol)?.isDataObjectList == true)
        #expect(dictionary.info(for: .udol, kernel: .c2)?.isDataObjectList == true)
        #expect(dictionary.info(for: .cardAuthenticationRelatedData, kernel: .c3)?.isDataObjectList == false)
    }

    @Test(arguments: [0x5A, 0x57, 0x56, 0x9F6B, 0x5F20, 0x9F1F, 0x99, 0x9F20, 0x9F0B] as [Tag])
    func sensitiveTagsAreMaskedForEveryKernel(tag: Tag) {
        for kernel in [Kernel.generic, .c2, .c3, .c4, .c5, .c6, .c7] {
            #expect(dictionary.masking(of: tag, kernel: kernel) != .none, "\(tag) for \(kernel)")
        }
        #expect(dictionary.meanings(of: tag).contains { $0.isSensitive })
    }

    @Test func ordinaryTagsAreNotMasked() {
        for tag: Tag in [.applicationInterchangeProfile, .applicationExpirationDate, .applicationCryptogram, .pdol] {
            #expect(dictionary.masking(of: tag, kernel: .c3) == .none)
        }
    }

    @Test func dictionariesCanBeExtended() {
        var custom = TagDictionary.standard
        custom.add(TagInfo(tag: 0xDF7F, name: "Proprietary", format: .binary, source: .card, kernel: .c6))
        #expect(custom.info(for: 0xDF7F, kernel: .c6)?.name == "Proprietary")
        #expect(custom.info(for: 0xDF7F, kernel: .c2) == nil)
        #expect(TagDictionary.standard.info(for: 0xDF7F, kernel: .c6) == nil)
    }

    @Test func kernelsAreIdentifiedByID() {
        #expect(Kernel.mastercard == .c2 && Kernel.visa == .c3)
        #expect(Kernel(id: 3, name: "Visa") == .c3)
        #expect(Set([Kernel.c2, .c3, .visa]).count == 2)
    }
}
