import EMV

/// The data objects one card application returned (FCI, GET PROCESSING OPTIONS, records, GENERATE AC), kept for the
/// kernel's decisions: values by tag, raw records for the static data ODA signs, and the ODA objects.
struct CardData: Sendable {
    /// Primitive values by tag; the first occurrence wins, as EMV Book 3 10.2 wants for records.
    private(set) var values: [Tag: [UInt8]] = [:]
    /// READ RECORD response data by SFI and record number, for ``StaticDataToBeAuthenticated``.
    var records: [RecordKey: [UInt8]] = [:]
    /// The ODA data objects.
    private(set) var oda = ODACardData()
    /// Whether an ODA data object came twice (ODA must then fail).
    private(set) var odaDataDuplicated = false

    struct RecordKey: Hashable, Sendable {
        var sfi: UInt8
        var number: UInt8
    }

    /// The value of `tag`, if the card sent it.
    subscript(tag: Tag) -> [UInt8]? {
        get { values[tag] }
        set { values[tag] = newValue }
    }

    /// Keeps every primitive object in `nodes` (at any depth) whose tag has no value yet.
    mutating func store(_ nodes: TLVNodeCollection) {
        for node in nodes.allDescendants where !node.isConstructed && values[node.tag] == nil {
            values[node.tag] = Array(node.value)
        }
        do { try oda.collect(from: nodes) } catch { odaDataDuplicated = true }
    }

    /// Keeps every primitive object in `nodes`, replacing earlier values (a GENERATE AC response supersedes).
    mutating func replace(with nodes: TLVNodeCollection) {
        for node in nodes.allDescendants where !node.isConstructed {
            values[node.tag] = Array(node.value)
        }
    }
}
