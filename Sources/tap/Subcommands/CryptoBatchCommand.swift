import ArgumentParser
import CryptoBatch

#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
private let systemRead = Darwin.read
#endif

extension Tap {
    /// Answers JSON-lines requests naming pyemv and psec functions, for differential testing against them.
    struct CryptoBatchCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "batch",
            abstract: "Run pyemv/psec-named crypto operations from JSON lines on stdin.",
            discussion: """
                Each input line is a JSON object such as
                  {"op":"kd.derive_icc_mk_a","iss_mk":"0123…","pan":"1234567890123456","psn":"00","id":1}
                naming a pyemv 1.5.0 or psec 1.3.0 function and its arguments by their Python names (bytes as hex).
                Each output line answers the input line at the same position:
                  {"id":1,"result":"<hex or text>"}  or  {"id":1,"error":{"code":"…","message":"…"}}
                Use --list to print the operation names.
                """
        )

        @Flag(help: "Print the supported operation names and exit.")
        var list = false

        func run() throws {
            if list {
                for operation in BatchOperationTable.standard.operations { print(operation.name) }
                return
            }
            var processor = BatchProcessor(outputCapacity: Self.flushThreshold + (1 << 16))
            let chunkSize = 1 << 20
            let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
            defer { chunk.deallocate() }
            while true {
                let count = systemRead(STDIN_FILENO, chunk.baseAddress, chunkSize)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ValidationError("cannot read standard input (errno \(errno))")
                }
                if count == 0 { break }
                processor.consume(UnsafeBufferPointer(rebasing: chunk[..<count]))
                if processor.output.bytes.count >= Self.flushThreshold {
                    try Self.write(processor.output.bytes)
                    processor.output.removeAll()
                }
            }
            processor.finish()
            try Self.write(processor.output.bytes)
        }

        private static let flushThreshold = 1 << 20

        /// Writes all of `bytes` to standard output, retrying short and interrupted writes.
        private static func write(_ bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = systemWrite(STDOUT_FILENO, base + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw ValidationError("cannot write standard output (errno \(errno))")
                    }
                    offset += written
                }
            }
        }
    }
}
