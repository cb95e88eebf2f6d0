extension DataObjectList {
    /// Builds the data the list asks for (the "DOL related data"), following EMV Book 3 section 5.4:
    ///
    /// - a value of the requested length is copied as it is;
    /// - a longer value is truncated: numeric (`n`) values lose their leftmost bytes, all others their rightmost;
    /// - a shorter value is padded: `n` on the left with `00`, compressed numeric (`cn`) on the right with `FF`,
    ///   all others on the right with `00`;
    /// - a value the source lacks, and any constructed tag, becomes `00` bytes of the requested length.
    ///
    /// Formats come from `dictionary` for `kernel` (so `9F5D` is padded as the numeric Available Offline Spending
    /// Amount for Kernel 3 and as binary for Kernel 2); unknown tags count as binary.
    public func relatedData(
        from source: some DOLValueSource, kernel: Kernel = .generic, dictionary: TagDictionary = .standard
    ) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(relatedDataLength)
        for entry in entries {
            let value = entry.tag.isConstructed ? nil : source.value(for: entry.tag)
            Self.append(value, as: dictionary.format(of: entry.tag, kernel: kernel), length: entry.length, to: &output)
        }
        return output
    }

    /// Builds the related data with values from a closure; see ``relatedData(from:kernel:dictionary:)``.
    public func relatedData(
        kernel: Kernel = .generic, dictionary: TagDictionary = .standard, values: (Tag) -> [UInt8]?
    ) -> [UInt8] {
        withoutActuallyEscaping(values) { values in
            relatedData(from: ClosureSource(values: values), kernel: kernel, dictionary: dictionary)
        }
    }

    private static func append(
        _ value: ArraySlice<UInt8>?, as format: DataFormat, length: Int, to output: inout [UInt8]
    ) {
        guard let value else {
            output.append(contentsOf: repeatElement(0, count: length))
            return
        }
        let count = value.count
        if count >= length {
            // Numeric values keep their rightmost (least significant) digits; everything else its leftmost bytes.
            let start = format == .numeric ? value.endIndex - length : value.startIndex
            output.append(contentsOf: value[start..<start + length])
        } else if format == .numeric {
            output.append(contentsOf: repeatElement(0, count: length - count))
            output.append(contentsOf: value)
        } else {
            output.append(contentsOf: value)
            output.append(contentsOf: repeatElement(format == .compressedNumeric ? 0xFF : 0x00, count: length - count))
        }
    }
}

/// Adapts a closure to ``DOLValueSource``.
private struct ClosureSource: DOLValueSource {
    let values: (Tag) -> [UInt8]?

    func value(for tag: Tag) -> ArraySlice<UInt8>? { values(tag)?[...] }
}
