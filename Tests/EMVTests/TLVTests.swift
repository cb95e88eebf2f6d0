import EMV
import Testing

@Suite struct TLVTests {
    private func bytes(_ hex: String) -> [UInt8] { TLVTestVectors.bytes(hex) }

    /// Asserts that parsing fails with `expected`'s code at `offset`.
    private func expectError(
        _ hex: String, _ expected: TLVError, at offset: Int, rules: EncodingRules = .strict, single: Bool = false,
        maximumDepth: Int = TLV.defaultMaximumDepth, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let input = bytes(hex)
        let error = #expect(throws: TLVError.self, sourceLocation: sourceLocation) {
            if single {
                _ = try TLV.parseOne(input, rules: rules, maximumDepth: maximumDepth)
            } else {
                _ = try TLV.parse(input, rules: rules, maximumDepth: maximumDepth)
            }
        }
        #expect(error?.code == expected.code, sourceLocation: sourceLocation)
        #expect(error?.offset == offset, sourceLocation: sourceLocation)
    }

    // MARK: Malformed input: one test per case, each checking the code and the offset.

    @Test func truncatedTag() {
        expectError("9F", .truncatedTag, at: 0)
        expectError("5A0112 9F", .truncatedTag, at: 3)
    }

    @Test func truncatedTagAtTheEndOfAConstructedValue() {
        // E0's value is the single byte 9F; the bytes after it belong to no object inside E0.
        expectError("E001 9F 0200", .truncatedTag, at: 2)
    }

    @Test func truncatedLength() {
        expectError("9F02", .truncatedLength, at: 2)
        expectError("5A 81", .truncatedLength, at: 1)
        expectError("5A 82 01", .truncatedLength, at: 1)
    }

    @Test func lengthExceedsData() {
        expectError("9F02 06 0000", .lengthExceedsData, at: 2)
    }

    @Test func childLengthExceedsItsTemplate() {
        expectError("E003 5A05 01 0203040506", .lengthExceedsData, at: 3)
    }

    @Test func indefiniteLength() {
        expectError("E080 5A0100 0000", .indefiniteLength, at: 1)
    }

    @Test func lengthOfMoreThanThreeBytes() {
        expectError("5A 83 000001 00", .lengthTooLong, at: 1)
        expectError("5A 84 00000001 00", .lengthTooLong, at: 1)
        expectError("5A 8F", .lengthTooLong, at: 1)
    }

    @Test func depthExceeded() throws {
        // A primitive inside 16 templates sits at depth 17, one more than the default maximum.
        var encoding = bytes("5A0100")
        for _ in 0..<16 { encoding = [0xE0, UInt8(encoding.count)] + encoding }
        expectError(encoding.hexString, .depthExceeded, at: 32)
        #expect(try TLV.parse(encoding, maximumDepth: 17).first(.applicationPAN)?.depth == 17)
        expectError("E003 5A0100", .depthExceeded, at: 2, maximumDepth: 1)
    }

    @Test func trailingBytes() {
        expectError("5A0100 9C0100", .trailingBytes, at: 3, single: true)
        expectError("5A0100 00 9C", .trailingBytes, at: 4, rules: .lenient, single: true)
    }

    @Test func noObjectAtAll() {
        expectError("", .truncatedTag, at: 0, single: true)
        expectError("0000FF", .truncatedTag, at: 3, rules: .lenient, single: true)
    }

    @Test func paddingIsRejectedByStrictRules() {
        expectError("00 5A0100", .paddingNotAllowed, at: 0)
        expectError("5A0100 FFFF", .paddingNotAllowed, at: 3)
        expectError("5A0100 FF", .paddingNotAllowed, at: 3)
        expectError("E004 5A0100 00", .paddingNotAllowed, at: 5)
    }

    @Test func nonMinimalLengthIsRejectedByStrictRules() {
        expectError("5A 8101 00", .nonMinimalLength, at: 1)
        expectError("5A 820001 00", .nonMinimalLength, at: 1)
        expectError("E004 5A810100", .nonMinimalLength, at: 3)
    }

    @Test func tagOfMoreThanThreeBytes() {
        expectError("9F8181 01 00", .tagTooLong, at: 0)
    }

    @Test func errorsMatchByCode() {
        #expect(throws: TLVError.truncatedLength) { try TLV.parse(bytes("9F02")) }
        #expect(TLVError.truncatedTag != TLVError.truncatedLength)
    }

    // MARK: Lenient rules

    @Test func lenientRulesSkipPaddingAndAcceptLongLengths() throws {
        let nodes = try TLV.parse(bytes("00FF E006 00 5A810112 FF 9C0101 00"), rules: .lenient)
        #expect(nodes.map(\.tag) == [0xE0, 0x9C])
        let template = try #require(nodes.first)
        #expect(template.children.map(\.tag) == [.applicationPAN])
        #expect(template.first(.applicationPAN)?.value.hexString == "12")
        #expect(try TLV.parseOne(bytes("00 5A0112 FFFF"), rules: .lenient).value.hexString == "12")
    }

    @Test func ffStartsAPrivateTagUnderStrictRules() throws {
        // Kernel 2's Torn Record is FF8101; strict rules read it as a tag, lenient rules as padding.
        let strict = try TLV.parse(bytes("FF8101 03 5A0112"))
        #expect(strict.map(\.tag) == [0xFF8101])
        #expect(strict.first?.children.map(\.tag) == [.applicationPAN])
        let lenient = try TLV.parse(bytes("FF8101 03 5A0112"), rules: .lenient)
        #expect(lenient.map(\.tag) == [0x81, .applicationPAN])
    }

    // MARK: Real card data

    @Test func realCardResponsesDecodeAsPyemvDecodesThem() throws {
        let vectors = try RealCardVectors.load()
        for card in vectors.cards {
            for response in card.responses {
                let nodes = try TLV.parse(response.bytes)
                #expect(PyemvNode.view(of: nodes) == response.pyemv, "\(card.card): \(response.step)")
                let reencoded = try TLV.Serializer.serialize { try $0.append(nodes) }
                #expect(reencoded == response.bytes, "\(card.card): \(response.step) re-encodes differently")
            }
        }
    }

    @Test func realVisaGetProcessingOptionsResponse() throws {
        let response = try RealCardVectors.load().visa.response("GET PROCESSING OPTIONS").bytes
        #expect(response.count == 201)
        let template = try TLV.parseOne(response)
        #expect(template.tag == .responseMessageTemplateFormat2)
        #expect(template.length == 198 && template.valueOffset == 3)
        #expect(
            template.children.map(\.tag) == [
                .applicationInterchangeProfile, .applicationFileLocator, .track2EquivalentData,
                .issuerApplicationData, .applicationCryptogram, .cryptogramInformationData,
                .applicationTransactionCounter, .signedDynamicApplicationData, .cardTransactionQualifiers,
            ])
        #expect(template.children.map(\.offset) == [3, 7, 13, 34, 44, 55, 59, 64, 196])
        #expect(template.first(.applicationInterchangeProfile)?.value.hexString == "2000")
        #expect(template.first(.applicationFileLocator)?.value.hexString == "10030600")
        #expect(template.first(.issuerApplicationData)?.value.hexString == "06040A03A02000")
        #expect(template.first(.applicationCryptogram)?.value.hexString == "569F946D585CB013")
        #expect(template.first(.cryptogramInformationData)?.value.hexString == "80")
        #expect(template.first(.applicationTransactionCounter)?.value.hexString == "03A4")
        #expect(template.first(.signedDynamicApplicationData)?.length == 128)
        #expect(template.first(.cardTransactionQualifiers)?.value.hexString == "1600")
        #expect(template.first(.applicationPAN) == nil)
    }

    @Test func realVisaSelectResponseNestsFourLevels() throws {
        let fci = try TLV.parseOne(RealCardVectors.load().visa.response("SELECT A0000000031010").bytes)
        #expect(fci.tag == .fileControlInformationTemplate)
        #expect(fci.children.map(\.tag) == [.dedicatedFileName, .fciProprietaryTemplate])
        let proprietary = try #require(fci.first(.fciProprietaryTemplate))
        #expect(proprietary.children.map(\.tag) == [0x50, 0x87, 0x9F38, 0x5F2D, 0xBF0C])
        #expect(fci.first(.pdol)?.value.hexString == "9F66049F02069F03069F1A0295055F2A029A039C019F3704")
        let deepest = try #require(fci.first(0xDF20))
        #expect(deepest.depth == 5 && deepest.value.hexString == "80" && deepest.offset == 91)
        #expect(fci.first(0xBF63)?.children.count == 1)
    }

    // MARK: Zero copy and offsets

    @Test func nodesAreViewsOfTheCallersBytes() throws {
        let input = try RealCardVectors.load().mastercard.response("READ RECORD SFI 2 record 1").bytes
        let nodes = try TLV.parse(input)
        input.withUnsafeBufferPointer { base in
            for node in nodes.allDescendants {
                node.value.withUnsafeBufferPointer { value in
                    #expect(value.baseAddress == base.baseAddress! + node.valueOffset)
                }
                node.encoded.withUnsafeBufferPointer { encoded in
                    #expect(encoded.baseAddress == base.baseAddress! + node.offset)
                }
            }
        }
    }

    @Test func offsetsCountFromTheStartOfASlice() throws {
        let input = bytes("AABBCC 9F0201AA E0035A0112")
        let nodes = try TLV.parse(input[3...])
        #expect(nodes.map(\.offset) == [0, 4])
        let pan = try #require(nodes.first(.applicationPAN))
        #expect(pan.offset == 6 && pan.valueOffset == 8)
        #expect(pan.value.startIndex == 11 && pan.value.hexString == "12")
        #expect(pan.encoded.hexString == "5A0112")
        let error = #expect(throws: TLVError.self) { try TLV.parse(input[3...4]) }
        #expect(error?.code == .truncatedLength && error?.offset == 2)
    }

    @Test func descriptionsNeverShowValues() throws {
        let node = try TLV.parseOne(bytes("5A08 4921828094896752"))
        for text in [node.description, node.debugDescription, String(reflecting: node), "\(node)"] {
            #expect(!text.contains("4921828094896752") && !text.contains("49 21"))
        }
        var dumped = ""
        dump(node, to: &dumped)
        #expect(!dumped.contains("4921828094896752") && dumped.contains("5A"))
    }

    // MARK: Serializer

    @Test func serializerWritesMinimalLengths() throws {
        let cases: [(count: Int, header: String)] = [
            (0, "5A00"), (127, "5A7F"), (128, "5A8180"), (255, "5A81FF"), (256, "5A820100"), (65535, "5A82FFFF"),
        ]
        for (count, header) in cases {
            let encoded = try TLV.Serializer.serialize {
                try $0.append(tag: .applicationPAN, value: [UInt8](repeating: 7, count: count))
            }
            #expect(encoded.prefix(header.count / 2).hexString == header)
            #expect(encoded.count == header.count / 2 + count)
            #expect(try TLV.parseOne(encoded).length == count)
        }
    }

    @Test func serializerRejectsWhatEMVCannotEncode() throws {
        var serializer = TLV.Serializer()
        try serializer.append(tag: 0x9C, value: [0x00])
        let tooLong = #expect(throws: TLVError.self) {
            try serializer.append(tag: .applicationPAN, value: [UInt8](repeating: 0, count: 65536))
        }
        #expect(tooLong?.code == .lengthTooLong && tooLong?.offset == 3)
        #expect(throws: TLVError.invalidTag) { try serializer.append(tag: 0x00, value: []) }
        #expect(throws: TLVError.invalidTag) { try serializer.append(tag: 0x9F, value: []) }
        #expect(throws: TLVError.invalidTag) { try serializer.append(tag: 0x9F8181, value: []) }
        #expect(throws: TLVError.invalidTag) { try serializer.appendConstructed(tag: .applicationPAN) { _ in } }
        // Nothing half-written is kept.
        #expect(throws: TLVError.lengthTooLong) {
            try serializer.appendConstructed(tag: .recordTemplate) { record in
                try record.append(tag: .applicationPAN, value: [0x12])
                try record.append(tag: .track1Data, value: [UInt8](repeating: 0x41, count: 65536))
            }
        }
        #expect(serializer.bytes.hexString == "9C0100")
    }

    @Test func nestedConstructedRoundTrip() throws {
        let encoded = try TLV.Serializer.serialize { out in
            try out.appendConstructed(tag: .fileControlInformationTemplate) { fci in
                try fci.append(tag: .dedicatedFileName, value: bytes("A0000000031010"))
                try fci.appendConstructed(tag: .fciProprietaryTemplate) { proprietary in
                    try proprietary.append(tag: .applicationLabel, value: Array("VISA DEBIT".utf8))
                    try proprietary.append(tag: .pdol, value: bytes("9F6604"))
                    try proprietary.appendConstructed(tag: .fciIssuerDiscretionaryData) { discretionary in
                        try discretionary.append(tag: 0x9F5A, value: [UInt8](repeating: 0x31, count: 200))
                    }
                }
            }
            try out.append(tag: .transactionType, value: [0x00])
        }
        let nodes = try TLV.parse(encoded)
        #expect(nodes.map(\.tag) == [.fileControlInformationTemplate, .transactionType])
        #expect(encoded.prefix(3).hexString == "6F81EE")  // widened after the 200-byte value made it long
        #expect(nodes.first(.fciProprietaryTemplate)?.encoded.prefix(3).hexString == "A581E2")
        #expect(nodes.first(.fciIssuerDiscretionaryData)?.encoded.prefix(4).hexString == "BF0C81CC")
        #expect(nodes.first(0x9F5A)?.length == 200)
        #expect(nodes.first(.applicationLabel)?.value.elementsEqual("VISA DEBIT".utf8) == true)
        #expect(try TLV.Serializer.serialize { try $0.append(nodes) } == encoded)
    }

    @Test func reserializingLenientInputGivesTheCanonicalForm() throws {
        let lenient = bytes("00 E0 8107 5A 820002 1234 FF 9C 8101 00 FFFF")
        let nodes = try TLV.parse(lenient, rules: .lenient)
        var serializer = TLV.Serializer()
        try serializer.append(nodes)
        #expect(serializer.bytes.hexString == "E0045A0212349C0100")
        var single = TLV.Serializer()
        try single.append(try #require(nodes.first(.applicationPAN)))
        #expect(single.bytes.hexString == "5A021234")
    }

    // MARK: Differential check against pyemv

    private struct Differential: Decodable {
        struct WellFormed: Decodable {
            var hex: String
            var lenientHex: String
            var tree: [PyemvNode]
        }

        struct Mutated: Decodable {
            var hex: String
            var tree: [PyemvNode]?
        }

        var provenance: String
        var wellFormed: [WellFormed]
        var mutated: [Mutated]
    }

    @Test func matchesPyemvOnRandomWellFormedTrees() throws {
        let vectors = try VectorFiles.load("tlv-pyemv-differential", as: Differential.self)
        #expect(vectors.wellFormed.count >= 2000)
        var nonMinimal = 0
        var withFFTags = 0
        for vector in vectors.wellFormed {
            let canonical = bytes(vector.hex)
            let nodes = try TLV.parse(canonical)
            #expect(PyemvNode.view(of: nodes) == vector.tree, "\(vector.hex)")
            // Our serializer writes what pyemv.tlv.encode wrote.
            #expect(try TLV.Serializer.serialize { try $0.append(nodes) } == canonical, "\(vector.hex)")

            // Lenient rules read a leading FF as padding (Book 3 Annex B), so FF tags only parse strictly.
            guard !vector.tree.contains(where: \.hasFFTag) else {
                withFFTags += 1
                continue
            }
            let lenient = bytes(vector.lenientHex)
            let lenientNodes = try TLV.parse(lenient, rules: .lenient)
            #expect(PyemvNode.view(of: lenientNodes) == vector.tree, "\(vector.lenientHex)")
            #expect(try TLV.Serializer.serialize { try $0.append(lenientNodes) } == canonical)
            if lenient != canonical {
                nonMinimal += 1
                #expect(throws: TLVError.nonMinimalLength) { try TLV.parse(lenient) }
            }
        }
        #expect(nonMinimal > 1000 && withFFTags > 0)
    }

    @Test func agreesWithPyemvOnMutatedInput() throws {
        let vectors = try VectorFiles.load("tlv-pyemv-differential", as: Differential.self)
        var bothAccepted = 0
        var onlyPyemvAccepted = 0
        for vector in vectors.mutated {
            let input = bytes(vector.hex)
            let ours = try? TLV.parse(input)
            switch (ours, vector.tree) {
            case (let nodes?, let tree?):
                bothAccepted += 1
                #expect(PyemvNode.view(of: nodes) == tree, "\(vector.hex)")
            case (.some, nil):
                Issue.record("accepted input pyemv rejects: \(vector.hex)")
            case (nil, .some):
                // pyemv is laxer: it reads 80 as a zero length, 83+ lengths, long tags and non-minimal lengths.
                onlyPyemvAccepted += 1
            case (nil, nil):
                break
            }
        }
        #expect(bothAccepted > 100 && onlyPyemvAccepted > 0)
    }

    // MARK: Robustness

    @Test func everyTruncationAndByteValueOfARealResponseIsHandled() throws {
        let response = try RealCardVectors.load().visa.response("GET PROCESSING OPTIONS").bytes
        for end in 0..<response.count {
            let error = #expect(throws: TLVError.self) { try TLV.parseOne(response[..<end]) }
            // The response holds track 2 data; errors name tags and offsets, never value bytes.
            #expect(error.map { !"\($0)".contains("4921828094896752") && !$0.message.contains("D2502") } == true)
        }
        // Every value at every position: parses or throws, never traps.
        var mutated = response
        var accepted = 0
        for position in mutated.indices {
            let original = mutated[position]
            for value in 0...255 {
                mutated[position] = UInt8(value)
                for rules in [EncodingRules.strict, .lenient] {
                    if let nodes = try? TLV.parse(mutated, rules: rules) {
                        accepted += 1
                        _ = nodes.allDescendants.reduce(0) { $0 + $1.value.count }
                    }
                }
            }
            mutated[position] = original
        }
        #expect(accepted > 0)
    }

    @Test func tagProperties() {
        let tag: Tag = 0x9F02
        #expect(tag.bytes == [0x9F, 0x02] && tag.byteCount == 2 && tag.description == "9F02")
        #expect(!tag.isConstructed && tag.tagClass == .contextSpecific)
        #expect(
            Tag.responseMessageTemplateFormat2.isConstructed
                && Tag.responseMessageTemplateFormat2.tagClass == .application)
        #expect(Tag(0xBF0C).isConstructed && Tag(0xDF8129).tagClass == .private && Tag(0xDF8129).byteCount == 3)
        #expect(Tag(bytes: [0x9F, 0x02]) == tag)
        #expect(Tag(bytes: [0x9F]) == nil && Tag(bytes: [0x9F, 0x82]) == nil && Tag(bytes: [0x5A, 0x01]) == nil)
        #expect(Tag(bytes: [0xDF, 0x81, 0x29]) == .outcomeParameterSet)
        #expect(Tag(0x5A) < Tag(0x9F02))
    }
}
