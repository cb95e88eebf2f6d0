/// The memory layout of winscard.h's `SCARD_READERSTATE` on one platform, to marshal ``PCSCReaderState`` values
/// without importing the C header (libpcsclite is loaded at run time).
///
/// ```c
/// typedef struct {
///     const char *szReader; void *pvUserData;
///     DWORD dwCurrentState; DWORD dwEventState; DWORD cbAtr;
///     unsigned char rgbAtr[MAX_ATR_SIZE];   // 33
/// } SCARD_READERSTATE;
/// ```
///
/// pcsc-lite on Linux: `DWORD` is `unsigned long` (8 bytes on 64-bit), natural alignment, so 80 bytes a record on
/// x86_64. macOS's PCSC framework: `DWORD` is `uint32_t` and the struct is `#pragma pack(1)`, so 61 bytes.
struct PCSCReaderStateLayout: Hashable, Sendable {
    /// Size of a pointer.
    var pointerSize: Int
    /// Size of `DWORD`.
    var dwordSize: Int
    /// Whether the struct is packed (macOS) rather than naturally aligned.
    var packed: Bool

    static let maximumATRSize = 33

    /// The layout of the platform this code runs on.
    static var native: PCSCReaderStateLayout {
        #if canImport(Darwin)
            PCSCReaderStateLayout(pointerSize: MemoryLayout<UnsafeRawPointer>.size, dwordSize: 4, packed: true)
        #else
            PCSCReaderStateLayout(
                pointerSize: MemoryLayout<UnsafeRawPointer>.size, dwordSize: MemoryLayout<UInt>.size, packed: false)
        #endif
    }

    var readerOffset: Int { 0 }
    var currentStateOffset: Int { 2 * pointerSize }
    var eventStateOffset: Int { currentStateOffset + dwordSize }
    var atrLengthOffset: Int { eventStateOffset + dwordSize }
    var atrOffset: Int { atrLengthOffset + dwordSize }

    /// Bytes from one record to the next.
    var stride: Int {
        let size = atrOffset + Self.maximumATRSize
        if packed { return size }
        let alignment = max(pointerSize, dwordSize)
        return (size + alignment - 1) / alignment * alignment
    }

    /// Writes `state` as the record at `index`, pointing its `szReader` at `name` (a NUL-terminated C string that
    /// must outlive the call that reads the records).
    func write(
        _ state: PCSCReaderState, name: UnsafePointer<CChar>?, into buffer: UnsafeMutableRawBufferPointer, at index: Int
    ) {
        let base = index * stride
        for offset in base..<(base + stride) { buffer[offset] = 0 }
        buffer.storeBytes(of: UInt(bitPattern: name), toByteOffset: base + readerOffset, as: UInt.self)
        store(UInt64(state.currentState.rawValue), at: base + currentStateOffset, in: buffer)
        store(0, at: base + eventStateOffset, in: buffer)
        let atr = state.atr.prefix(Self.maximumATRSize)
        store(UInt64(atr.count), at: base + atrLengthOffset, in: buffer)
        for (offset, byte) in zip((base + atrOffset)..., atr) { buffer[offset] = byte }
    }

    /// Reads back the states and ATR of the record at `index` into `state` (the name is the caller's).
    ///
    /// An ATR length beyond the 33-byte array (a broken library) is cut to the array.
    func read(_ state: inout PCSCReaderState, from buffer: UnsafeRawBufferPointer, at index: Int) {
        let base = index * stride
        state.currentState = .init(
            rawValue: UInt32(truncatingIfNeeded: load(at: base + currentStateOffset, in: buffer)))
        state.eventState = .init(rawValue: UInt32(truncatingIfNeeded: load(at: base + eventStateOffset, in: buffer)))
        let length = Int(min(load(at: base + atrLengthOffset, in: buffer), UInt64(Self.maximumATRSize)))
        state.atr = Array(buffer[(base + atrOffset)..<(base + atrOffset + length)])
    }

    private func store(_ value: UInt64, at offset: Int, in buffer: UnsafeMutableRawBufferPointer) {
        if dwordSize == 8 {
            buffer.storeBytes(of: value, toByteOffset: offset, as: UInt64.self)
        } else {
            buffer.storeBytes(of: UInt32(truncatingIfNeeded: value), toByteOffset: offset, as: UInt32.self)
        }
    }

    private func load(at offset: Int, in buffer: UnsafeRawBufferPointer) -> UInt64 {
        dwordSize == 8
            ? buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            : UInt64(buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
