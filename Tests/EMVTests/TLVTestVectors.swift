import EMV
import Foundation

/// Loads the TLV, dictionary and DOL test vectors under Vectors/ (each file names its provenance).
enum TLVTestVectors {
    /// Bytes from hex that may contain spaces for readability.
    static func bytes(_ hex: String) -> [UInt8] {
        guard let bytes = [UInt8](hex: hex.filter { $0 != " " }) else {
            preconditionFailure("bad hex in a test: \(hex)")
        }
        return bytes
    }
}

/// A decoded TLV tree as pyemv.tlv.decode sees it: an ordered dictionary per level (a repeated tag keeps its first
/// position and takes its last value), encoded in the vectors as `[tag, "HEX"]` or `[tag, [children]]`.
indirect enum PyemvNode: Decodable, Equatable, CustomStringConvertible {
    case primitive(String, String)
    case constructed(String, [PyemvNode])

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let tag = try container.decode(String.self)
        if let hex = try? container.decode(String.self) {
            self = .primitive(tag, hex)
        } else {
            self = .constructed(tag, try container.decode([PyemvNode].self))
        }
    }

    var tag: String {
        switch self {
        case .primitive(let tag, _), .constructed(let tag, _): tag
        }
    }

    /// Whether this object or one inside it has a tag starting with FF.
    var hasFFTag: Bool {
        switch self {
        case .primitive(let tag, _): tag.hasPrefix("FF")
        case .constructed(let tag, let children): tag.hasPrefix("FF") || children.contains(where: \.hasFFTag)
        }
    }

    var description: String {
        switch self {
        case .primitive(let tag, let hex): "\(tag)=\(hex)"
        case .constructed(let tag, let children): "\(tag){\(children.map(\.description).joined(separator: ","))}"
        }
    }

    /// Our parse, seen through pyemv's dictionary semantics.
    static func view(of nodes: TLVNodeCollection) -> [PyemvNode] {
        var result: [PyemvNode] = []
        for node in nodes {
            let entry: PyemvNode =
                node.isConstructed
                ? .constructed(node.tag.description, view(of: node.children))
                : .primitive(node.tag.description, node.value.hexString)
            if let existing = result.firstIndex(where: { $0.tag == entry.tag }) {
                result[existing] = entry
            } else {
                result.append(entry)
            }
        }
        return result
    }
}

/// Tests/EMVTests/Vectors/tlv-real-cards.json.
struct RealCardVectors: Decodable {
    struct Response: Decodable {
        var step: String
        var command: String
        var hex: String
        var pyemv: [PyemvNode]
        var bytes: [UInt8] { TLVTestVectors.bytes(hex) }
    }

    struct Card: Decodable {
        var card: String
        var kernel: String
        var source: String
        var pan: String
        var responses: [Response]

        func response(_ step: String) -> Response {
            guard let response = responses.first(where: { $0.step == step }) else {
                preconditionFailure("no step \(step) in the vectors of \(card)")
            }
            return response
        }
    }

    var provenance: String
    var cards: [Card]

    static func load() throws -> RealCardVectors { try VectorFiles.load("tlv-real-cards", as: RealCardVectors.self) }

    var visa: Card { cards[0] }
    var mastercard: Card { cards[1] }
}

/// Swift Testing also has a `Tag` (for tagging tests); in this target the name means the EMV tag.
typealias Tag = EMV.Tag
