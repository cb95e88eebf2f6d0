// libFuzzer target for the BER-TLV parser, serializer, pretty printer and data object lists.
// Compiled into one module with the sources listed in Fuzz/TLV/sources, from the package root:
//   swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name TLVFuzz \
//       $(cat Fuzz/TLV/sources) Fuzz/TLV/TLVFuzz.swift -o .fuzz/tlv
//   .fuzz/tlv -max_total_time=60 .fuzz/tlv-corpus Fuzz/TLV/corpus
// Besides crashes, it traps (fatalError) when an invariant fails, so libFuzzer reports those as findings too.

/// The libFuzzer entry point: checks one input under strict and lenient rules.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    for rules in [EncodingRules.strict, .lenient] {
        if let nodes = try? TLV.parse(input, rules: rules) {
            checkTree(nodes, input: input)
            checkReserialization(nodes, input: input, rules: rules)
            for kernel in [Kernel.generic, .c2, .c3] {
                _ = TLVPrettyPrinter(kernel: kernel).format(nodes)
            }
        }
        if let node = try? TLV.parseOne(input, rules: rules) {
            require(node.depth == 1 && node.encoded.endIndex <= input.count, "parseOne returned a bad node")
            checkTree(node.children, input: input)
            _ = TLVPrettyPrinter(kernel: .c2).format(node)
        }
        checkDataObjectList(input, rules: rules)
    }
    return 0
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant failed: \(message())") }
}

/// Every node lies inside the input, its value inside its encoding, its children inside its value.
private func checkTree(_ nodes: TLVNodeCollection, input: [UInt8]) {
    var previousEnd = -1
    for node in nodes.allDescendants {
        let encoded = node.encoded
        let value = node.value
        require(encoded.startIndex == node.offset && encoded.endIndex <= input.count, "encoding out of bounds")
        require(value.startIndex == node.valueOffset && value.endIndex == encoded.endIndex, "value outside encoding")
        require(value.count == node.length && node.valueOffset > node.offset, "length mismatch")
        require(Array(encoded) == Array(input[node.offset..<encoded.endIndex]), "encoding is not the input's bytes")
        if !node.isConstructed { require(node.children.isEmpty, "primitive with children") }
        for child in node.children {
            require(child.depth == node.depth + 1, "child depth")
            require(
                child.offset >= node.valueOffset && child.encoded.endIndex <= value.endIndex, "child outside parent")
        }
        if node.depth == 1 {
            require(node.offset >= previousEnd, "top-level objects overlap")
            previousEnd = encoded.endIndex
        }
        if let found = nodes.first(node.tag) {
            require(found.offset <= node.offset, "first(_:) missed an earlier object")
        } else {
            require(false, "first(_:) did not find a present tag")
        }
    }
}

/// Serializing a parse gives the canonical form; strict input already is canonical, and the canonical form
/// parses strictly to the same tree.
private func checkReserialization(_ nodes: TLVNodeCollection, input: [UInt8], rules: EncodingRules) {
    var serializer = TLV.Serializer()
    do {
        try serializer.append(nodes)
    } catch {
        fatalError("could not serialize a parsed tree: \(error)")
    }
    let output = serializer.bytes
    if rules == .strict { require(output == input, "strict input is not canonical after a round trip") }
    guard let reparsed = try? TLV.parse(output, rules: .strict) else {
        fatalError("the serializer's output does not parse strictly")
    }
    let before = nodes.allDescendants
    let after = reparsed.allDescendants
    require(before.count == after.count, "round trip changed the number of objects")
    for (old, new) in zip(before, after) {
        require(old.tag == new.tag && old.depth == new.depth, "round trip changed the structure")
        if !old.isConstructed { require(old.value.elementsEqual(new.value), "round trip changed a value") }
    }
}

/// Lists parse, re-encode and build related data of the advertised length with any kind of source.
private func checkDataObjectList(_ input: [UInt8], rules: EncodingRules) {
    guard let list = try? DataObjectList(input, rules: rules) else { return }
    if rules == .strict { require(list.bytes == input, "strict list is not canonical after a round trip") }
    require((try? DataObjectList(list.bytes)) == list, "list does not round-trip")
    guard list.relatedDataLength <= 1 << 16 else { return }
    let empty = list.relatedData { _ in nil }
    require(empty.count == list.relatedDataLength && empty.allSatisfy { $0 == 0 }, "absent data is not zeros")
    for kernel in [Kernel.generic, .c2, .c3] {
        let filled = list.relatedData(kernel: kernel) { tag in Array(input.prefix(Int(tag.rawValue % 40))) }
        require(filled.count == list.relatedDataLength, "related data has the wrong length")
    }
}
