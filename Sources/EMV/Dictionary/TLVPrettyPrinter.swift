/// Renders parsed TLV data as an indented tree with tag names, lengths and values, hiding sensitive values.
///
/// ```
/// 77 Response Message Template Format 2 [198]
///   82 Application Interchange Profile (AIP) [2] 2000
///   57 Track 2 Equivalent Data [19] 492182******6752D****************** (masked)
///   9F6C Card Transaction Qualifiers (CTQ) [2] 1600
/// ```
/// Names come from the dictionary for the chosen kernel. Values show as text for `a`/`an`/`ans`, digits for `n`
/// and `cn`, hex otherwise, and data object lists as their entries. Values the dictionary marks sensitive for
/// any kernel are masked (a PAN as BIN and last four digits, track data without anything after the PAN, names
/// and PIN data not at all), so the output never holds a PAN, track data or a cardholder name in clear.
public struct TLVPrettyPrinter: Sendable {
    /// The kernel whose meanings name the tags.
    public var kernel: Kernel
    /// Where names, formats and masking come from.
    public var dictionary: TagDictionary
    /// Prefix added per nesting level.
    public var indentation: String

    /// Creates a printer.
    public init(kernel: Kernel = .generic, dictionary: TagDictionary = .standard, indentation: String = "  ") {
        self.kernel = kernel
        self.dictionary = dictionary
        self.indentation = indentation
    }

    /// One line per data object, children indented under their template.
    public func format(_ nodes: TLVNodeCollection) -> String {
        var lines: [String] = []
        // The node list is already depth-first, so no recursion is needed however deep the data nests.
        for node in nodes.allDescendants {
            lines.append(line(for: node, level: node.depth - (nodes.first?.depth ?? 1)))
        }
        return lines.joined(separator: "\n")
    }

    /// The tree under one data object.
    public func format(_ node: TLVNode) -> String {
        var lines = [line(for: node, level: 0)]
        for child in node.children.allDescendants {
            lines.append(line(for: child, level: child.depth - node.depth))
        }
        return lines.joined(separator: "\n")
    }

    /// Parses and renders `bytes`; a parse error is rendered as its description (which holds no value bytes).
    public func format(bytes: [UInt8], rules: EncodingRules = .lenient) -> String {
        do {
            return format(try TLV.parse(bytes, rules: rules))
        } catch {
            return "\(error)"
        }
    }

    private func line(for node: TLVNode, level: Int) -> String {
        let prefix = String(repeating: indentation, count: max(level, 0))
        let head = "\(prefix)\(node.tag) \(name(of: node.tag)) [\(node.length)]"
        if node.isConstructed || node.length == 0 { return head }
        return head + " " + render(node.value, tag: node.tag)
    }

    /// The kernel's name for `tag`; for a tag only other kernels define, every meaning with its kernel.
    func name(of tag: Tag) -> String {
        if let info = dictionary.info(for: tag, kernel: kernel) { return info.name }
        let meanings = dictionary.meanings(of: tag)
        if meanings.isEmpty { return "(unknown tag)" }
        return meanings.map { "\($0.name) [\($0.kernel)]" }.joined(separator: " | ")
    }

    private func render(_ value: ArraySlice<UInt8>, tag: Tag) -> String {
        let masking = dictionary.masking(of: tag, kernel: kernel)
        if masking != .none { return SensitiveDataMask.mask(value, as: masking) + " (masked)" }
        guard let info = dictionary.info(for: tag, kernel: kernel) else { return value.hexString }
        if info.isDataObjectList, let list = try? DataObjectList(value) {
            return "DOL " + list.map { "\($0.tag)(\($0.length))" }.joined(separator: " ")
        }
        switch info.format {
        case .alphabetic, .alphanumeric, .alphanumericSpecial: return Self.text(value)
        case .compressedNumeric: return Self.trimmingPadding(value.hexString)
        case .numeric, .binary, .variable: return value.hexString
        }
    }

    /// Printable ASCII in quotes, anything else as `\xNN`.
    static func text(_ value: ArraySlice<UInt8>) -> String {
        var result = "\""
        for byte in value {
            if (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "\\x" + [byte].hexString
            }
        }
        return result + "\""
    }

    /// Compressed numeric digits without their trailing `F` padding.
    static func trimmingPadding(_ digits: String) -> String {
        String(digits.reversed().drop { $0 == "F" }.reversed())
    }
}
