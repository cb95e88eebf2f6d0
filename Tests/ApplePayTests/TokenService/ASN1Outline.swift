import Foundation

/// The shape of a BER document as `openssl asn1parse -i` prints it: per node its depth, type, whether its length
/// is indefinite and, for object identifiers, which one. Certificates' insides are left out, so the outline of
/// our signature can be compared with Apple's.
struct ASN1Outline: Equatable, CustomStringConvertible {
    struct Node: Equatable, CustomStringConvertible {
        var depth: Int
        var indefinite: Bool
        var type: String
        var object: String?

        var description: String {
            String(repeating: " ", count: depth) + type + (indefinite ? " (inf)" : "")
                + (object.map { " :\($0)" } ?? "")
        }
    }

    var nodes: [Node]

    var description: String { nodes.map(\.description).joined(separator: "\n") }

    /// Parses `openssl asn1parse -inform DER -i` output, dropping everything below depth 4 inside the SignedData's
    /// certificates (`cont [ 0 ]` at depth 3).
    init(asn1parse output: String) {
        var nodes: [Node] = []
        var inCertificates = false
        for line in output.split(separator: "\n") {
            guard let node = Self.node(String(line)) else { continue }
            if node.depth == 3 { inCertificates = node.type == "cont [ 0 ]" }
            if inCertificates && node.depth > 4 { continue }
            nodes.append(node)
        }
        self.nodes = nodes
    }

    /// `   13:d=1  hl=2 l=inf  cons:  cont [ 0 ]` → depth 1, indefinite, "cont [ 0 ]".
    private static func node(_ line: String) -> Node? {
        guard let depthRange = line.range(of: "d="), let colon = line.range(of: "prim:") ?? line.range(of: "cons:")
        else { return nil }
        let depth = Int(line[depthRange.upperBound...].prefix { $0.isNumber }) ?? -1
        let indefinite = line.contains("l=inf")
        let rest = line[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        let parts = rest.split(separator: ":", maxSplits: 1)
        let type = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let object = type == "OBJECT" && parts.count > 1 ? String(parts[1]) : nil
        return Node(depth: depth, indefinite: indefinite, type: type, object: object)
    }
}
