import CardEmulator
import Foundation
import Testing

@testable import Gateway

@Suite("QR code")
struct QRCodeTests {
    /// Byte-mode capacity in bytes (ISO/IEC 18004:2015 Table 7), written out from the standard rather than derived
    /// from the encoder's block table, for the versions the tests probe; rows L, M, Q, H.
    static let byteCapacity: [Int: [Int]] = [
        1: [17, 14, 11, 7], 2: [32, 26, 20, 14], 3: [53, 42, 32, 24], 4: [78, 62, 46, 34], 5: [106, 84, 60, 44],
        6: [134, 106, 74, 58], 7: [154, 122, 86, 64], 8: [192, 152, 108, 84], 9: [230, 180, 130, 98],
        10: [271, 213, 151, 119], 27: [1465, 1125, 805, 625], 40: [2953, 2331, 1663, 1273],
    ]

    @Test("zbarimg reads every symbol back as its text")
    func zbarDecodesEverySymbol() throws {
        guard let zbarimg = Self.executable(named: "zbarimg") else {
            Issue.record("zbarimg (zbar-tools) is needed; scripts/test installs it")
            return
        }
        let samples = Self.samples()
        let directory = FileManager.default.temporaryDirectory.appending(path: "qrcode-tests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        for (index, sample) in samples.enumerated() {
            let file = directory.appending(path: "\(index).pbm")
            // Two pixels a module: plenty for zbar, and it reads them in half the time of the default four.
            try Data(QRCode(sample.text, correction: sample.correction).pbm(moduleSize: 2)).write(to: file)
            files.append(file.path)
        }

        // One run for all images, with -Sbinary: without it zbar guesses a charset for byte-mode data and reads some
        // UTF-8 as Shift JIS ("é" comes out as "ﾃｩ"). With it the bytes come out as encoded, but with no newline
        // between symbols, so the output is checked as the images' texts back to back, in argument order.
        let process = Process()
        process.executableURL = zbarimg
        process.arguments = ["--raw", "-q", "--nodbus", "-Sdisable", "-Sqrcode.enable", "-Sbinary"] + files
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let decoded = Array(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "zbarimg exited with \(process.terminationStatus)")

        // zbarimg prints nothing for an image it cannot read, so each step looks for the first text still ahead that
        // lines up with the output.
        var offset = 0
        var unread: [Int] = []
        var next = 0
        while next < samples.count {
            guard let match = samples[next...].firstIndex(where: { decoded[offset...].starts(with: $0.text.utf8) })
            else {
                unread += next..<samples.count
                break
            }
            unread += next..<match
            offset += samples[match].text.utf8.count
            next = match + 1
        }
        let described = unread.prefix(20).map { index in
            let sample = samples[index]
            return "#\(index) at \(sample.correction), \(sample.text.utf8.count) bytes: \(sample.text.prefix(60))"
        }
        #expect(
            unread.isEmpty,
            "\(samples.count - unread.count) of \(samples.count) read back; not:\n\(described.joined(separator: "\n"))")
        #expect(
            offset == decoded.count,
            "zbarimg printed more: \(String(decoding: decoded[offset...].prefix(60), as: UTF8.self))")
    }

    @Test("the smallest version that holds the text is chosen, as Table 7's byte capacities say")
    func capacityBoundaries() throws {
        for (version, capacities) in Self.byteCapacity {
            for correction in QRCode.ErrorCorrection.allCases {
                let capacity = capacities[correction.rawValue]
                let full = try QRCode(String(repeating: "a", count: capacity), correction: correction)
                #expect(full.version == version, "\(capacity) bytes at \(correction)")
                #expect(full.size == 17 + 4 * version)
                guard version < 40 else { continue }
                let over = try QRCode(String(repeating: "a", count: capacity + 1), correction: correction)
                #expect(over.version > version, "\(capacity + 1) bytes at \(correction)")
            }
        }
    }

    @Test("sizes of known inputs")
    func knownSizes() throws {
        // 11 bytes fit version 1 at M (14 bytes).
        #expect(try QRCode("HELLO WORLD").size == 21)
        // A receipt URL is 67 bytes: version 4 at L (78), 5 at M (84), 6 at Q (74), 8 at H (84).
        let receipt = "http://127.0.0.1:8080/pos/receipts/0123456789abcdef0123456789abcdef"
        #expect(try QRCode(receipt, correction: .low).size == 33)
        #expect(try QRCode(receipt, correction: .medium).size == 37)
        #expect(try QRCode(receipt, correction: .quartile).size == 41)
        #expect(try QRCode(receipt, correction: .high).size == 49)
        // Capacity counts UTF-8 bytes, not characters: "☕" is three, and version 1 holds 14 at M.
        #expect(try QRCode(String(repeating: "☕", count: 4)).version == 1)
        #expect(try QRCode(String(repeating: "☕", count: 5)).version == 2)
    }

    @Test("text over version 40's capacity is refused")
    func tooLong() throws {
        #expect(try QRCode(String(repeating: "a", count: 2953), correction: .low).version == 40)
        #expect(throws: QRCode.Error.tooLong) { try QRCode(String(repeating: "a", count: 2954), correction: .low) }
        #expect(throws: QRCode.Error.tooLong) { try QRCode(String(repeating: "é", count: 637), correction: .high) }
    }

    @Test("the SVG names itself with the escaped title and needs no inline style")
    func svg() throws {
        let svg = try QRCode("http://127.0.0.1:8080/pos/receipts/abc").svg(title: #"Receipt <7> & "Café's""#)
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 37 37" width="148""#))
        #expect(svg.contains(#"role="img""#))
        #expect(svg.contains("<title>Receipt &lt;7&gt; &amp; &quot;Café&apos;s&quot;</title>"))
        #expect(svg.contains(##"<rect width="37" height="37" fill="#fff"/>"##))
        #expect(svg.components(separatedBy: "<path ").count == 2)
        #expect(svg.contains(##"fill="#000""##))
        #expect(!svg.contains("style"))
        #expect(!svg.contains("<script"))
        #expect(svg.hasSuffix("</svg>"))
    }

    @Test("the PBM is a P4 header and one padded bit row per pixel row")
    func pbm() throws {
        let code = try QRCode("a")
        let image = code.pbm(moduleSize: 1, quietZone: 4)
        let header = Array("P4\n29 29\n".utf8)
        #expect(Array(image.prefix(header.count)) == header)
        #expect(image.count == header.count + 29 * 4)
        // Row 4 is the finder's top edge: four quiet pixels, seven dark, then the light separator.
        #expect(image[header.count + 16] == 0b0000_1111)
        #expect(image[header.count + 17] & 0b1111_0000 == 0b1110_0000)
    }

    @Test("function patterns sit where §6.3 puts them")
    func functionPatterns() throws {
        let code = try QRCode("http://127.0.0.1:8080/pos/receipts/abc", correction: .high)
        let last = code.size - 1
        for (x, y) in [(0, 0), (6, 0), (0, 6), (last, 0), (0, last), (2, 2), (last - 2, 2), (2, last - 2)] {
            #expect(code.isDark(x: x, y: y), "finder module (\(x), \(y))")
        }
        for (x, y) in [(7, 7), (1, 1), (last - 7, 7), (7, last - 7), (last - 1, 1)] {
            #expect(!code.isDark(x: x, y: y), "light finder or separator module (\(x), \(y))")
        }
        for index in 8...(last - 8) {
            #expect(code.isDark(x: index, y: 6) == index.isMultiple(of: 2), "timing module \(index)")
        }
        #expect(code.isDark(x: 8, y: code.size - 8), "the dark module")
    }

    @Test("format and version information, alignment centres and codeword counts match the standard's tables")
    func tables() {
        // Annex C, Table C.1: mask 0 at each level.
        #expect(QRCode.formatInformation(correction: .low, mask: 0) == 0b111_0111_1100_0100)
        #expect(QRCode.formatInformation(correction: .medium, mask: 0) == 0b101_0100_0001_0010)
        #expect(QRCode.formatInformation(correction: .quartile, mask: 0) == 0b011_0101_0101_1111)
        #expect(QRCode.formatInformation(correction: .high, mask: 0) == 0b001_0110_1000_1001)
        // Annex D, Table D.1.
        #expect(QRCode.versionInformation(version: 7) == 0x07C94)
        #expect(QRCode.versionInformation(version: 21) == 0x15683)
        #expect(QRCode.versionInformation(version: 40) == 0x28C69)
        // Annex E, Table E.1.
        #expect(QRCode.alignmentCenters(version: 1) == [])
        #expect(QRCode.alignmentCenters(version: 2) == [6, 18])
        #expect(QRCode.alignmentCenters(version: 7) == [6, 22, 38])
        #expect(QRCode.alignmentCenters(version: 15) == [6, 26, 48, 70])
        #expect(QRCode.alignmentCenters(version: 32) == [6, 34, 60, 86, 112, 138])
        #expect(QRCode.alignmentCenters(version: 36) == [6, 24, 50, 76, 102, 128, 154])
        #expect(QRCode.alignmentCenters(version: 40) == [6, 30, 58, 86, 114, 142, 170])
        // Table 1: total codewords of versions 1–40.
        let totals = [
            26, 44, 70, 100, 134, 172, 196, 242, 292, 346, 404, 466, 532, 581, 655, 733, 815, 901, 991, 1085,
            1156, 1258, 1364, 1474, 1588, 1706, 1828, 1921, 2051, 2185, 2323, 2465, 2611, 2761, 2876, 3034, 3196,
            3362, 3532, 3706,
        ]
        #expect((1...40).map { QRCode.totalCodewords(version: $0) } == totals)
        // Table 7 again, in data codewords: version 10 at M holds 216.
        #expect(QRCode.dataCodewords(version: 10, correction: .medium) == 216)
    }

    @Test("Reed–Solomon codewords of the standard's worked example, 01234567 at 1-M (Annex I)")
    func reedSolomon() {
        let data: [UInt8] = [
            0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
        ]
        let correction = QRCode.ReedSolomon.remainder(
            of: data[...], generator: QRCode.ReedSolomon.generator(degree: 10))
        #expect(correction == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    // MARK: - Samples

    /// ~150 texts at each level, the same on every run: receipt URLs, printable ASCII of random lengths up to
    /// version 10 or so, non-ASCII text, then each probed version's exact capacity at its level.
    static func samples() -> [(text: String, correction: QRCode.ErrorCorrection)] {
        var random = SeededRandomNumberGenerator(seed: 0x5152_436F_6465)
        let urlSafe = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let printable = (0x20...0x7E).map { Character(UnicodeScalar(UInt8($0))) }
        let nonASCII = Array("éüßñΩ€☕日本語😀") + Array("abc /:")
        func randomText(_ alphabet: [Character], count: Int) -> String {
            String((0..<count).map { _ in alphabet.randomElement(using: &random)! })
        }

        var texts = ["a", "Café ☕", "HELLO WORLD", " leading and trailing spaces "]
        texts += (0..<60).map { _ in "http://127.0.0.1:8080/pos/receipts/\(randomText(urlSafe, count: 32))" }
        texts += (0..<60).map { _ in randomText(printable, count: Int.random(in: 1...280, using: &random)) }
        texts += (0..<26).map { _ in randomText(nonASCII, count: Int.random(in: 1...60, using: &random)) }
        // Level by level, so that neighbours differ and a symbol zbar misses cannot pass as its neighbour.
        var samples: [(text: String, correction: QRCode.ErrorCorrection)] = QRCode.ErrorCorrection.allCases.flatMap {
            correction in texts.map { (text: $0, correction: correction) }
        }
        for (_, capacities) in byteCapacity.sorted(by: { $0.key < $1.key }) {
            for correction in QRCode.ErrorCorrection.allCases {
                samples.append((randomText(urlSafe, count: capacities[correction.rawValue]), correction))
            }
        }
        return samples
    }

    /// The first `name` on PATH, as a shell finds it.
    static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(filePath: String($0)).appending(path: name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
