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
        input[..<cut].withUnsafeBufferPointer { lines in
            processor.process(lines: lines) { output.append(contentsOf: $0) }
        }
        input[cut...].withUnsafeBufferPointer { last in
            processor.finish(lastLine: last) { output.append(contentsOf: $0) }
        }
        #expect(output == expected)
    }

    private func format6(_ value: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
