import Foundation
import Testing

@testable import SmartCard

@Suite("SCARD_READERSTATE marshalling")
struct PCSCReaderStateLayoutTests {
    static let linux64 = PCSCReaderStateLayout(pointerSize: 8, dwordSize: 8, packed: false)
    static let macOS = PCSCReaderStateLayout(pointerSize: 8, dwordSize: 4, packed: true)

    @Test("pcsc-lite on 64-bit Linux: 8-byte DWORDs, ATR at 40, 80 bytes a record")
    func linuxLayout() {
        #expect(Self.linux64.currentStateOffset == 16)
        #expect(Self.linux64.eventStateOffset == 24)
        #expect(Self.linux64.atrLengthOffset == 32)
        #expect(Self.linux64.atrOffset == 40)
        #expect(Self.linux64.stride == 80)
        #if os(Linux) && arch(x86_64)
            #expect(PCSCReaderStateLayout.native == Self.linux64)
        #endif
    }

    @Test("macOS PCSC framework: packed, 4-byte DWORDs, 61 bytes a record")
    func macOSLayout() {
        #expect(Self.macOS.atrOffset == 28)
        #expect(Self.macOS.stride == 61)
    }

    @Test("A record as pcsc-lite fills it parses into states, event counter and ATR", arguments: [linux64, macOS])
    func parse(layout: PCSCReaderStateLayout) {
        var bytes = [UInt8](repeating: 0xEE, count: layout.stride * 2)
        func put(_ value: UInt64, at offset: Int) {
            for index in 0..<layout.dwordSize {
                bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
            }
        }
        let base = layout.stride
        put(0x10, at: base + layout.currentStateOffset)
        put(0x0003_0022, at: base + layout.eventStateOffset)  // event 3, PRESENT | CHANGED
        put(5, at: base + layout.atrLengthOffset)
        bytes.replaceSubrange(
            (base + layout.atrOffset)..<(base + layout.atrOffset + 5), with: [0x3B, 0x80, 0x80, 0x01, 0x01])
        var state = PCSCReaderState(readerName: "r")
        bytes.withUnsafeBytes { layout.read(&state, from: $0, at: 1) }
        #expect(state.currentState == .empty)
        #expect(state.eventState.contains([.present, .changed]))
        #expect(state.eventState.eventCount == 3)
        #expect(state.atr == [0x3B, 0x80, 0x80, 0x01, 0x01])
        #expect(state.isCardPresent)
    }

    @Test("An ATR length beyond the array is cut to 33 bytes")
    func oversizedATR() {
        let layout = Self.linux64
        var bytes = [UInt8](repeating: 0, count: layout.stride)
        bytes[layout.atrLengthOffset] = 0xFF
        var state = PCSCReaderState(readerName: "r")
        bytes.withUnsafeBytes { layout.read(&state, from: $0, at: 0) }
        #expect(state.atr.count == 33)
    }

    @Test("Writing then reading a record keeps the state and ATR, and points at the name", arguments: [linux64, macOS])
    func roundTrip(layout: PCSCReaderStateLayout) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.stride * 2, alignment: 8)
        defer { buffer.deallocate() }
        let name = strdup("Reader")
        defer { free(name) }
        let original = PCSCReaderState(readerName: "Reader", currentState: [.present, .inUse], atr: [1, 2, 3])
        layout.write(original, name: UnsafePointer(name), into: buffer, at: 1)
        var back = PCSCReaderState(readerName: "Reader")
        layout.read(&back, from: UnsafeRawBufferPointer(buffer), at: 1)
        #expect(back.currentState == original.currentState)
        #expect(back.atr == [1, 2, 3])
        let pointer = buffer.loadUnaligned(fromByteOffset: layout.stride, as: UInt.self)
        #expect(pointer == UInt(bitPattern: name))
    }

    @Test("Mute cards are not usable cards")
    func mute() {
        let state = PCSCReaderState(readerName: "r", eventState: [.present, .mute])
        #expect(!state.isCardPresent)
        #expect(state.description == "r: card present but mute")
    }
}
