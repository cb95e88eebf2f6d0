// libFuzzer target for the APDU codec: every input is parsed as a command and as a response; whatever parses
// must re-serialize to bytes that parse back to the same value. Any failure of that is a real finding, so it
// traps (fatalError) for libFuzzer to report; parse errors are the expected outcome for most inputs.
//
// Build and run (see Fuzz/APDU/sources for the library files compiled with it):
//   swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name APDUFuzz \
//       $(cat Fuzz/APDU/sources) Fuzz/APDU/APDUFuzz.swift -o .fuzz/apdu
//   .fuzz/apdu -max_total_time=60

/// The libFuzzer entry point: checks one input as a command and as a response APDU.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    checkCommand(input)
    checkResponse(input)
    return 0
}

private func checkCommand(_ input: [UInt8]) {
    guard let command = try? CommandAPDU(bytes: input) else { return }
    let encoded = command.bytes
    guard let reparsed = try? CommandAPDU(bytes: encoded) else {
        fatalError("command re-encoding does not parse: \(input.hexString) -> \(encoded.hexString)")
    }
    guard reparsed == command else {
        fatalError("command round trip changed the value: \(input.hexString) -> \(encoded.hexString)")
    }
    // Short-form input, or input whose content needs the extended form, is already canonical and must come
    // back byte for byte; extended input that would fit the short form is re-encoded short.
    let inputWasShort = input.count <= 5 || input[4] != 0x00
    if (inputWasShort || command.isExtended) && encoded != input {
        fatalError("canonical command re-encoded differently: \(input.hexString) -> \(encoded.hexString)")
    }
    if inputWasShort && command.isExtended {
        fatalError("short-form input parsed to a value that needs the extended form: \(input.hexString)")
    }
}

private func checkResponse(_ input: [UInt8]) {
    guard let response = try? ResponseAPDU(bytes: input) else {
        if input.count >= 2 { fatalError("a response of \(input.count) bytes was rejected") }
        return
    }
    guard response.bytes == input else {
        fatalError("response round trip changed the bytes: \(input.hexString)")
    }
    _ = response.statusWord.description
}
