/// A QR code (ISO/IEC 18004:2015, Model 2) holding text, so a customer's phone camera can open a receipt's URL.
///
/// The text goes in one byte-mode segment as UTF-8, without an ECI header: receipt URLs are ASCII, and phone cameras
/// read other bytes as UTF-8 anyway (some decoders guess instead: zbar may read them as Shift JIS). The smallest
/// version 1–40 that holds the text at the chosen level is used, with the mask of lowest penalty (§7.8.3).
struct QRCode: Sendable {
    /// How much of the symbol can be damaged and still read (§7.5.1): about 7, 15, 25 and 30 % of codewords.
    enum ErrorCorrection: Int, Sendable, CaseIterable {
        // Raw values index the rows of `BlockTable`.
        case low, medium, quartile, high

        /// The level's two bits in the format information (Table 12): L 01, M 00, Q 11, H 10.
        fileprivate var formatBits: Int { [0b01, 0b00, 0b11, 0b10][rawValue] }
    }

    /// Why text cannot become a QR code.
    enum Error: Swift.Error, Equatable {
        /// More bytes than version 40 holds at the chosen level (2953 at L, 2331 at M, 1663 at Q, 1273 at H).
        case tooLong
    }

    /// 1–40: each version adds four modules to a side.
    let version: Int
    let correction: ErrorCorrection
    /// The data mask pattern (0–7, Table 10) that scored lowest.
    let mask: Int
    /// Dark modules, row by row.
    private let modules: [Bool]

    /// Modules on a side, without the quiet zone (§6.3.1).
    var size: Int { 17 + 4 * version }

    /// Encodes `text` as UTF-8 bytes in the smallest version that fits.
    init(_ text: String, correction: ErrorCorrection = .medium) throws(QRCode.Error) {
        let bytes = Array(text.utf8)
        guard let version = (1...40).first(where: { Self.fits(bytes.count, version: $0, correction: correction) })
        else { throw .tooLong }

        var matrix = Matrix(version: version)
        matrix.drawFunctionPatterns()
        matrix.place(Self.codewords(bytes, version: version, correction: correction))
        var best = (penalty: Int.max, mask: 0, modules: [Bool]())
        for mask in 0..<8 {
            var candidate = matrix
            candidate.apply(mask: mask)
            candidate.drawFormat(correction: correction, mask: mask)
            let penalty = candidate.penalty()
            if penalty < best.penalty { best = (penalty, mask, candidate.modules) }
        }
        self.version = version
        self.correction = correction
        self.mask = best.mask
        self.modules = best.modules
    }

    /// Whether the module in row `y`, column `x` is dark; (0, 0) is the top-left corner.
    func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }
}

// MARK: - Data codewords (§7.4, §7.5, §7.6)

extension QRCode {
    /// Total codewords in a version (Table 1), in whole bytes: size² less the finders with separators (3 × 64),
    /// format information and dark module (31), timing patterns (2 × (size − 16)), alignment patterns (25 each, less
    /// the timing modules under them) and version information (2 × 18).
    static func totalCodewords(version: Int) -> Int {
        var modules = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            modules -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { modules -= 36 }
        }
        return modules / 8
    }

    /// Data codewords: the total less the error correction codewords of all blocks (Table 9).
    static func dataCodewords(version: Int, correction: ErrorCorrection) -> Int {
        let level = correction.rawValue
        return totalCodewords(version: version)
            - BlockTable.correctionPerBlock[level][version - 1] * BlockTable.blocks[level][version - 1]
    }

    /// Mode indicator, character count (8 bits up to version 9, else 16; Table 3) and the bytes.
    private static func fits(_ count: Int, version: Int, correction: ErrorCorrection) -> Bool {
        4 + (version <= 9 ? 8 : 16) + 8 * count <= 8 * dataCodewords(version: version, correction: correction)
    }

    /// The final message (§7.6): data codewords split into blocks, each with its Reed–Solomon codewords, interleaved.
    private static func codewords(_ bytes: [UInt8], version: Int, correction: ErrorCorrection) -> [UInt8] {
        let capacity = dataCodewords(version: version, correction: correction)
        var bits: [Bool] = []
        func append(_ value: Int, count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> shift & 1 == 1) }
        }
        append(0b0100, count: 4)  // byte mode (Table 2)
        append(bytes.count, count: version <= 9 ? 8 : 16)
        for byte in bytes { append(Int(byte), count: 8) }
        append(0, count: min(4, 8 * capacity - bits.count))  // terminator (§7.4.9)
        append(0, count: (8 - bits.count % 8) % 8)
        var data = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<(start + 8)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        for index in 0..<(capacity - data.count) { data.append(index % 2 == 0 ? 0xEC : 0x11) }  // pad (§7.4.10)

        // Table 9: the later blocks hold one data codeword more than the earlier ("short") ones.
        let level = correction.rawValue
        let blockCount = BlockTable.blocks[level][version - 1]
        let correctionLength = BlockTable.correctionPerBlock[level][version - 1]
        let total = totalCodewords(version: version)
        let shortBlocks = blockCount - total % blockCount
        let shortLength = total / blockCount - correctionLength
        let generator = ReedSolomon.generator(degree: correctionLength)
        var dataBlocks: [ArraySlice<UInt8>] = []
        var correctionBlocks: [[UInt8]] = []
        var start = 0
        for index in 0..<blockCount {
            let block = data[start..<(start + shortLength + (index < shortBlocks ? 0 : 1))]
            start = block.endIndex
            dataBlocks.append(block)
            correctionBlocks.append(ReedSolomon.remainder(of: block, generator: generator))
        }

        var result: [UInt8] = []
        for offset in 0...shortLength {
            for block in dataBlocks where offset < block.count { result.append(block[block.startIndex + offset]) }
        }
        for offset in 0..<correctionLength {
            for block in correctionBlocks { result.append(block[offset]) }
        }
        return result
    }
}

/// Table 9, for versions 1–40: error correction codewords in each block, and how many blocks; rows L, M, Q, H.
// swift-format-ignore
private enum BlockTable {
    // Version:  1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18  19  20
    //          21  22  23  24  25  26  27  28  29  30  31  32  33  34  35  36  37  38  39  40
    static let correctionPerBlock: [[Int]] = [
        [ 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
         28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
         26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
        [13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
         28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
         30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    ]
    static let blocks: [[Int]] = [
        [ 1,  1,  1,  1,  1,  2,  2,  2,  2,  4,  4,  4,  4,  4,  6,  6,  6,  6,  7,  8,
          8,  9,  9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
        [ 1,  1,  1,  2,  2,  4,  4,  4,  5,  5,  5,  8,  9,  9, 10, 10, 11, 13, 14, 16,
         17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
        [ 1,  1,  2,  2,  4,  4,  6,  6,  8,  8,  8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
         23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
        [ 1,  1,  2,  4,  4,  4,  5,  6,  8,  8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
         25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
    ]
}

extension QRCode {
    /// Reed–Solomon codes over GF(256) with the field polynomial x⁸ + x⁴ + x³ + x² + 1, 0x11D (§7.5.2).
    enum ReedSolomon {
        /// Coefficients of ∏ (x − αⁱ) for i < degree, highest power first, without the leading 1 (Annex A).
        static func generator(degree: Int) -> [UInt8] {
            var coefficients = [UInt8](repeating: 0, count: degree)
            coefficients[degree - 1] = 1
            var root: UInt8 = 1
            for _ in 0..<degree {
                for index in 0..<degree {
                    coefficients[index] =
                        multiply(coefficients[index], root)
                        ^ (index + 1 < degree ? coefficients[index + 1] : 0)
                }
                root = multiply(root, 2)
            }
            return coefficients
        }

        /// The error correction codewords: the remainder of data · x^degree divided by the generator.
        static func remainder(of data: ArraySlice<UInt8>, generator: [UInt8]) -> [UInt8] {
            var remainder = [UInt8](repeating: 0, count: generator.count)
            for byte in data {
                let factor = byte ^ remainder.removeFirst()
                remainder.append(0)
                for index in remainder.indices { remainder[index] ^= multiply(generator[index], factor) }
            }
            return remainder
        }

        /// Multiplication through logarithms: αⁱ · αʲ = αⁱ⁺ʲ, with α = 2.
        static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
            a == 0 || b == 0 ? 0 : powers[(logarithms[Int(a)] + logarithms[Int(b)]) % 255]
        }

        /// αⁱ for i in 0..<255: doubling, reduced by 0x11D when it overflows a byte.
        private static let powers: [UInt8] = {
            var powers: [UInt8] = []
            var value = 1
            for _ in 0..<255 {
                powers.append(UInt8(value))
                value <<= 1
                if value > 0xFF { value ^= 0x11D }
            }
            return powers
        }()

        /// i for each αⁱ; index 0 unused.
        private static let logarithms: [Int] = {
            var logarithms = [Int](repeating: 0, count: 256)
            for (exponent, power) in powers.enumerated() { logarithms[Int(power)] = exponent }
            return logarithms
        }()
    }
}

// MARK: - The symbol's modules (§6.3, §7.7 to §7.10)

extension QRCode {
    /// Alignment pattern centres on each axis (Annex E, Table E.1), from the formula that reproduces the table:
    /// 6, then evenly spaced by an even step back from size − 7.
    static func alignmentCenters(version: Int) -> [Int] {
        guard version >= 2 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        let last = 17 + 4 * version - 7
        return [6] + (0..<(count - 1)).map { last - $0 * step }.reversed()
    }

    /// The 15 format bits (§7.9.1, Annex C): level and mask, BCH(15,5) with generator 0x537, XOR 0x5412 so that
    /// they are never all light.
    static func formatInformation(correction: ErrorCorrection, mask: Int) -> Int {
        let data = correction.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        return (data << 10 | remainder) ^ 0x5412
    }

    /// The 18 version bits (§7.10, Annex D): the version and BCH(18,6) with generator 0x1F25.
    static func versionInformation(version: Int) -> Int {
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        return version << 12 | remainder
    }

    /// The module grid while it is built: which modules are dark, and which belong to function patterns (data and
    /// masks leave those alone).
    private struct Matrix {
        let version: Int
        let size: Int
        private(set) var modules: [Bool]
        private var isFunction: [Bool]

        init(version: Int) {
            self.version = version
            size = 17 + 4 * version
            modules = Array(repeating: false, count: size * size)
            isFunction = modules
        }

        private mutating func setFunction(x: Int, y: Int, dark: Bool) {
            modules[y * size + x] = dark
            isFunction[y * size + x] = true
        }

        mutating func drawFunctionPatterns() {
            // Timing patterns (§6.3.5): row and column 6 alternate, dark first.
            for index in 0..<size {
                setFunction(x: 6, y: index, dark: index % 2 == 0)
                setFunction(x: index, y: 6, dark: index % 2 == 0)
            }
            // Finder patterns with their light separators (§6.3.3, §6.3.4): rings 2 and 4 around the centre are light.
            for (centerX, centerY) in [(3, 3), (size - 4, 3), (3, size - 4)] {
                for dy in -4...4 {
                    for dx in -4...4 where (0..<size).contains(centerX + dx) && (0..<size).contains(centerY + dy) {
                        let ring = max(abs(dx), abs(dy))
                        setFunction(x: centerX + dx, y: centerY + dy, dark: ring != 2 && ring != 4)
                    }
                }
            }
            // Alignment patterns (§6.3.6), except the three corners the finders occupy.
            let centers = QRCode.alignmentCenters(version: version)
            for centerY in centers {
                for centerX in centers {
                    let first = centers.first, last = centers.last
                    if centerX == first && (centerY == first || centerY == last) || centerX == last && centerY == first
                    {
                        continue
                    }
                    for dy in -2...2 {
                        for dx in -2...2 {
                            setFunction(x: centerX + dx, y: centerY + dy, dark: max(abs(dx), abs(dy)) != 1)
                        }
                    }
                }
            }
            // Reserve the format areas now (each mask redraws them), and write the version blocks (§7.10).
            drawFormat(correction: .medium, mask: 0)
            if version >= 7 {
                let bits = QRCode.versionInformation(version: version)
                for index in 0..<18 {
                    let dark = bits >> index & 1 == 1
                    let across = size - 11 + index % 3, down = index / 3
                    setFunction(x: across, y: down, dark: dark)
                    setFunction(x: down, y: across, dark: dark)
                }
            }
        }

        /// Both copies of the format information and the dark module (§7.9.1, Figure 25).
        mutating func drawFormat(correction: ErrorCorrection, mask: Int) {
            let bits = QRCode.formatInformation(correction: correction, mask: mask)
            func bit(_ index: Int) -> Bool { bits >> index & 1 == 1 }
            // Around the top-left finder, skipping the timing pattern.
            for index in 0...5 { setFunction(x: 8, y: index, dark: bit(index)) }
            setFunction(x: 8, y: 7, dark: bit(6))
            setFunction(x: 8, y: 8, dark: bit(7))
            setFunction(x: 7, y: 8, dark: bit(8))
            for index in 9..<15 { setFunction(x: 14 - index, y: 8, dark: bit(index)) }
            // Split between the top-right and bottom-left finders.
            for index in 0..<8 { setFunction(x: size - 1 - index, y: 8, dark: bit(index)) }
            for index in 8..<15 { setFunction(x: 8, y: size - 15 + index, dark: bit(index)) }
            setFunction(x: 8, y: size - 8, dark: true)
        }

        /// Codeword bits in two-module columns from the bottom right, up then down, skipping the vertical timing
        /// pattern (§7.7.3); the remainder bits stay light.
        mutating func place(_ codewords: [UInt8]) {
            var next = 0
            for even in stride(from: size - 1, through: 2, by: -2) {
                let right = even > 6 ? even : even - 1
                let upward = (right + 1) & 2 == 0
                for step in 0..<size {
                    let y = upward ? size - 1 - step : step
                    for x in stride(from: right, through: right - 1, by: -1)
                    where !isFunction[y * size + x] && next < codewords.count * 8 {
                        modules[y * size + x] = codewords[next / 8] >> (7 - next % 8) & 1 == 1
                        next += 1
                    }
                }
            }
        }

        /// XORs the data modules with a pattern of Table 10 (i is the row, j the column).
        mutating func apply(mask: Int) {
            for i in 0..<size {
                for j in 0..<size where !isFunction[i * size + j] {
                    let flip =
                        switch mask {
                        case 0: (i + j) % 2 == 0
                        case 1: i % 2 == 0
                        case 2: j % 3 == 0
                        case 3: (i + j) % 3 == 0
                        case 4: (i / 2 + j / 3) % 2 == 0
                        case 5: i * j % 2 + i * j % 3 == 0
                        case 6: (i * j % 2 + i * j % 3) % 2 == 0
                        default: ((i + j) % 2 + i * j % 3) % 2 == 0
                        }
                    if flip { modules[i * size + j].toggle() }
                }
            }
        }

        /// The four penalty rules of §7.8.3.1 with the weights of Table 11 (N1 3, N2 3, N3 40, N4 10).
        func penalty() -> Int {
            var score = 0
            for line in 0..<size {
                for isRow in [true, false] {
                    var cells = [Bool](repeating: false, count: size)
                    for index in 0..<size { cells[index] = modules[isRow ? line * size + index : index * size + line] }
                    // Rule 1: each run of five or more alike scores N1 plus one per module beyond five.
                    var run = 1
                    for index in 1..<size {
                        if cells[index] == cells[index - 1] {
                            run += 1
                            continue
                        }
                        if run >= 5 { score += run - 2 }
                        run = 1
                    }
                    if run >= 5 { score += run - 2 }
                    // Rule 3: dark, light, three dark, light, dark (1:1:3:1:1) with four light modules before or
                    // after; outside the symbol is the light quiet zone. `window` holds the last 11 modules.
                    var window = 0
                    for dark in cells + [false, false, false, false] {
                        window = (window << 1 | (dark ? 1 : 0)) & 0x7FF
                        if window == 0b0000_1011101 || window == 0b1011101_0000 { score += 40 }
                    }
                }
            }
            // Rule 2: each 2 × 2 block of one colour.
            for y in 0..<(size - 1) {
                for x in 0..<(size - 1) {
                    let colour = modules[y * size + x]
                    if modules[y * size + x + 1] == colour && modules[(y + 1) * size + x] == colour
                        && modules[(y + 1) * size + x + 1] == colour
                    {
                        score += 3
                    }
                }
            }
            // Rule 4: N4 for each full 5 % the dark share is away from half.
            let darkCount = modules.count(where: { $0 })
            score += 10 * (abs(darkCount * 20 - modules.count * 10) / modules.count)
            return score
        }
    }
}

// MARK: - Images

extension QRCode {
    /// A self-contained SVG: a white square, one black path, and a `<title>` that names it for screen readers.
    ///
    /// Only presentation attributes, no `style` and no script, so pages with a strict Content-Security-Policy
    /// (no 'unsafe-inline') can embed it.
    func svg(moduleSize: Int = 4, quietZone: Int = 4, title: String) -> String {
        let side = size + 2 * quietZone
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                let start = x
                while x < size && isDark(x: x, y: y) { x += 1 }
                path += "M\(start + quietZone) \(y + quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(side * moduleSize)" \
            height="\(side * moduleSize)" role="img" shape-rendering="crispEdges">\
            <title>\(Self.escapeXML(title))</title>\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }

    /// A binary portable bitmap (P4, 1 is black) with the quiet zone: an image any decoder reads.
    func pbm(moduleSize: Int = 4, quietZone: Int = 4) -> [UInt8] {
        let width = (size + 2 * quietZone) * moduleSize
        var image = Array("P4\n\(width) \(width)\n".utf8)
        for pixelY in 0..<width {
            var row = [UInt8](repeating: 0, count: (width + 7) / 8)
            for pixelX in 0..<width {
                let x = pixelX / moduleSize - quietZone, y = pixelY / moduleSize - quietZone
                if (0..<size).contains(x) && (0..<size).contains(y) && isDark(x: x, y: y) {
                    row[pixelX / 8] |= 0x80 >> (pixelX % 8)
                }
            }
            image += row
        }
        return image
    }

    private static func escapeXML(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
            .replacing("\"", with: "&quot;").replacing("'", with: "&apos;")
    }
}
