extension DataObjectList {
    /// Splits DOL related data back into the values the list asked for, in the list's order: what a card does with
    /// the PDOL or CDOL data of a command, and an issuer with the terminal data a cryptogram covers. The values are
    /// slices of `relatedData` (no copies).
    ///
    /// - Returns: nil when `relatedData` is not exactly ``relatedDataLength`` bytes long.
    public func values(in relatedData: [UInt8]) -> [(tag: Tag, value: ArraySlice<UInt8>)]? {
        guard relatedData.count == relatedDataLength else { return nil }
        var values: [(tag: Tag, value: ArraySlice<UInt8>)] = []
        values.reserveCapacity(count)
        var offset = relatedData.startIndex
        for entry in entries {
            values.append((entry.tag, relatedData[offset..<(offset + entry.length)]))
            offset += entry.length
        }
        return values
    }
}
