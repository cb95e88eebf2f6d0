import CryptoBatch
import Testing

@Suite struct ParallelBatchProcessorTests {
    @Test(arguments: [1, 2, 3, 8])
    func answersInInputOrderWhateverTheWorkers(_ workers: Int) throws {
        let lines = (0..<2000).map { index in
            #"{"op":"kd.derive_common_sk","icc_mk":"0123456789ABCDEFFEDCBA9876543210","r":"\#(format6(index))0000000000","id":\#(index)}"#
                + "\n"
        }
        let input = Array((lines + ["{bad\n", #"{"op":"mac.pad_iso_1","data":"AB","id":"last"}"#]).joined().utf8)
        let single = BatchProcessor()
        let expected = single.run(input)

        let processor = ParallelBatchProcessor(workers: workers, parallelThreshold: 1024)
        var output: [UInt8] = []
        let cut = try #require(input.lastIndex(of: 0x0A)) + 1
        try input[..<cut].withUnsafeBufferPointer { lines in
            try processor.process(lines: lines) { output.append(contentsOf: $0) }
        }
        input[cut...].withUnsafeBufferPointer { last in
            processor.finish(lastLine: last) { output.append(contentsOf: $0) }
        }
        #expect(output == expected)
    }

    /// Lines longer than a part's nominal size: the part that holds one grows to its end.
    @Test(arguments: [2, 3])
    func linesLongerThanAPart(_ workers: Int) throws {
        let long = String(repeating: "0123456789ABCDEF", count: 2048)
        let lines = (0..<300).map { index in
            index % 50 == 7
                ? #"{"op":"mac.pad_iso_2","data":"\#(long)","id":\#(index)}"# + "\n"
                : #"{"op":"mac.pad_iso_1","data":"\#(format6(index))","id":\#(index)}"# + "\n"
        }
        let input = Array(lines.joined().utf8)
        let expected = BatchProcessor().run(input)
        let processor = ParallelBatchProcessor(workers: workers, parallelThreshold: 1024)
        var output: [UInt8] = []
        try input.withUnsafeBufferPointer { lines in
            try processor.process(lines: lines) { output.append(contentsOf: $0) }
        }
        #expect(output == expected)
    }

    @Test("a write that fails stops the run, and process throws its error")
    func failedWrite() throws {
        struct Full: Error {}
        let line = #"{"op":"mac.pad_iso_1","data":"ABCD"}"# + "\n"
        let input = Array(String(repeating: line, count: 20_000).utf8)
        let processor = ParallelBatchProcessor(workers: 2, parallelThreshold: 1024)
        var writes = 0
        #expect(throws: Full.self) {
            try input.withUnsafeBufferPointer { lines in
                try processor.process(lines: lines) { _ in
                    writes += 1
                    if writes == 3 { throw Full() }
                }
            }
        }
        #expect(writes == 3)
    }

    private func format6(_ value: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
