#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension PCSCFunctions {
    /// Where the PC/SC library is looked for, in order: the versioned soname every distribution ships with the
    /// runtime package, the development symlink, and macOS's framework.
    public static var systemLibraryCandidates: [String] {
        #if canImport(Darwin)
            ["/System/Library/Frameworks/PCSC.framework/PCSC"]
        #else
            ["libpcsclite.so.1", "libpcsclite.so"]
        #endif
    }

    /// The system's PC/SC library (libpcsclite, or macOS's PCSC framework), loaded once with `dlopen` on first use.
    ///
    /// - Throws: ``SmartCardError/Code/libraryUnavailable`` naming the package to install when no candidate loads
    ///   or a function is missing.
    public static func system() throws(SmartCardError) -> PCSCFunctions {
        try loadedSystem.get()
    }

    private static let loadedSystem: Result<PCSCFunctions, SmartCardError> = {
        do throws(SmartCardError) {
            return .success(try load(candidates: systemLibraryCandidates))
        } catch {
            return .failure(error)
        }
    }()

    /// Loads the first of `candidates` that `dlopen` accepts and resolves the PC/SC functions in it.
    ///
    /// - Throws: ``SmartCardError/Code/libraryUnavailable`` when none loads, or the one that does lacks a symbol.
    public static func load(candidates: [String]) throws(SmartCardError) -> PCSCFunctions {
        var reasons: [String] = []
        for path in candidates {
            // RTLD_NOW: a library missing a function fails here rather than at the first call.
            if let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) {
                return try resolve(handle, path: path)
            }
            reasons.append(dlerror().map { String(cString: $0) } ?? "\(path): not found")
        }
        throw SmartCardError(
            code: .libraryUnavailable,
            message: "the PC/SC library libpcsclite is not installed (tried \(candidates.joined(separator: ", "))): "
                + "\(SmartCardError.installHint)"
                + (reasons.isEmpty ? "" : "; dlopen said: \(reasons.joined(separator: "; "))"))
    }

    private static func resolve(_ handle: UnsafeMutableRawPointer, path: String) throws(SmartCardError) -> PCSCFunctions
    {
        func symbol(_ name: String) throws(SmartCardError) -> UnsafeMutableRawPointer {
            guard let pointer = dlsym(handle, name) else {
                throw SmartCardError(
                    code: .libraryUnavailable,
                    message:
                        "\(path) has no \(name); it is not a PC/SC library this code supports: \(SmartCardError.installHint)"
                )
            }
            return pointer
        }
        let c = try CFunctions(
            establishContext: unsafeBitCast(symbol("SCardEstablishContext"), to: CFunctions.EstablishContext.self),
            releaseContext: unsafeBitCast(symbol("SCardReleaseContext"), to: CFunctions.ReleaseContext.self),
            listReaders: unsafeBitCast(symbol("SCardListReaders"), to: CFunctions.ListReaders.self),
            getStatusChange: unsafeBitCast(symbol("SCardGetStatusChange"), to: CFunctions.GetStatusChange.self),
            connect: unsafeBitCast(symbol("SCardConnect"), to: CFunctions.Connect.self),
            disconnect: unsafeBitCast(symbol("SCardDisconnect"), to: CFunctions.Disconnect.self),
            transmit: unsafeBitCast(symbol("SCardTransmit"), to: CFunctions.Transmit.self),
            status: unsafeBitCast(symbol("SCardStatus"), to: CFunctions.Status.self),
            cancel: unsafeBitCast(symbol("SCardCancel"), to: CFunctions.Cancel.self),
            t0PCI: UnsafeRawPointer(symbol("g_rgSCardT0Pci")),
            t1PCI: UnsafeRawPointer(symbol("g_rgSCardT1Pci")))
        return c.table
    }
}

/// The C entry points of winscard.h, with the platform's integer widths: pcsc-lite's `DWORD`/`LONG` are
/// `unsigned long`/`long` (64-bit on 64-bit Linux), macOS's `uint32_t`/`int32_t`; handles are `LONG`.
private struct CFunctions: @unchecked Sendable {
    // Sendable by hand: C function pointers and the library's constant PCI structs never change once resolved.
    #if canImport(Darwin)
        typealias DWORD = UInt32
        typealias LONG = Int32
    #else
        typealias DWORD = UInt
        typealias LONG = Int
    #endif
    typealias Handle = LONG

    typealias EstablishContext =
        @convention(c) (
            DWORD, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeMutablePointer<Handle>?
        ) -> LONG
    typealias ReleaseContext = @convention(c) (Handle) -> LONG
    typealias ListReaders =
        @convention(c) (
            Handle, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias GetStatusChange = @convention(c) (Handle, DWORD, UnsafeMutableRawPointer?, DWORD) -> LONG
    typealias Connect =
        @convention(c) (
            Handle, UnsafePointer<CChar>?, DWORD, DWORD, UnsafeMutablePointer<Handle>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias Disconnect = @convention(c) (Handle, DWORD) -> LONG
    typealias Transmit =
        @convention(c) (
            Handle, UnsafeRawPointer?, UnsafePointer<UInt8>?, DWORD, UnsafeMutableRawPointer?,
            UnsafeMutablePointer<UInt8>?,
            UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias Status =
        @convention(c) (
            Handle, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<DWORD>?, UnsafeMutablePointer<DWORD>?,
            UnsafeMutablePointer<DWORD>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias Cancel = @convention(c) (Handle) -> LONG

    let establishContext: EstablishContext
    let releaseContext: ReleaseContext
    let listReaders: ListReaders
    let getStatusChange: GetStatusChange
    let connect: Connect
    let disconnect: Disconnect
    let transmit: Transmit
    let status: Status
    let cancel: Cancel
    /// `g_rgSCardT0Pci` and `g_rgSCardT1Pci`: the library's own protocol control information for SCardTransmit.
    let t0PCI: UnsafeRawPointer
    let t1PCI: UnsafeRawPointer

    /// Short APDUs fit (256 + SW); an extended answer gets a second try with the largest buffer.
    static let shortBufferSize = 258
    static let extendedBufferSize = 65_538 + 10

    /// The Swift table over these entry points.
    var table: PCSCFunctions {
        let c = self
        return PCSCFunctions(
            establishContext: { scope in
                var context: Handle = 0
                let rc = c.establishContext(DWORD(scope), nil, nil, &context)
                return (PCSCStatus(rc), Int(context))
            },
            releaseContext: { context in PCSCStatus(c.releaseContext(Handle(truncatingIfNeeded: context))) },
            listReaders: { context in c.readerNames(Handle(truncatingIfNeeded: context)) },
            getStatusChange: { context, timeout, states in
                c.statusChange(Handle(truncatingIfNeeded: context), timeout: timeout, states: &states)
            },
            connect: { context, reader, share, preferred in
                var card: Handle = 0
                var active: DWORD = 0
                let rc = c.connect(
                    Handle(truncatingIfNeeded: context), reader, DWORD(share), DWORD(preferred.rawValue), &card, &active
                )
                return (PCSCStatus(rc), Int(card), PCSCProtocol(rawValue: UInt32(truncatingIfNeeded: active)))
            },
            disconnect: { card, disposition in
                PCSCStatus(c.disconnect(Handle(truncatingIfNeeded: card), DWORD(disposition)))
            },
            transmit: { card, proto, command in c.send(Handle(truncatingIfNeeded: card), proto, command) },
            status: { card in c.cardStatus(Handle(truncatingIfNeeded: card)) },
            cancel: { context in PCSCStatus(c.cancel(Handle(truncatingIfNeeded: context))) })
    }

    private func readerNames(_ context: Handle) -> (PCSCStatus, multiString: [UInt8]) {
        // Ask for the size, then fetch; a reader plugged in between makes the second call report a short buffer,
        // so try a few times.
        for _ in 0..<3 {
            var length: DWORD = 0
            let sized = PCSCStatus(listReaders(context, nil, nil, &length))
            guard sized == .success, length > 0 else { return (sized, []) }
            var buffer = [CChar](repeating: 0, count: Int(length))
            let rc = PCSCStatus(listReaders(context, nil, &buffer, &length))
            if rc == .insufficientBuffer { continue }
            guard rc == .success else { return (rc, []) }
            return (rc, buffer.prefix(Int(min(length, DWORD(buffer.count)))).map { UInt8(bitPattern: $0) })
        }
        return (.insufficientBuffer, [])
    }

    private func statusChange(_ context: Handle, timeout: UInt32, states: inout [PCSCReaderState]) -> PCSCStatus {
        let layout = PCSCReaderStateLayout.native
        // The names must stay valid C strings for the whole call: copy them into one buffer first.
        var offsets: [Int] = []
        var names: [CChar] = []
        for state in states {
            offsets.append(names.count)
            names += state.readerName.utf8CString
        }
        let count = states.count
        return names.withUnsafeBufferPointer { namesBuffer in
            let records = UnsafeMutableRawBufferPointer.allocate(
                byteCount: max(1, count) * layout.stride, alignment: MemoryLayout<UInt64>.alignment)
            defer { records.deallocate() }
            for index in 0..<count {
                layout.write(
                    states[index], name: namesBuffer.baseAddress.map { $0 + offsets[index] }, into: records, at: index)
            }
            let rc = PCSCStatus(getStatusChange(context, DWORD(timeout), records.baseAddress, DWORD(count)))
            for index in 0..<count { layout.read(&states[index], from: UnsafeRawBufferPointer(records), at: index) }
            return rc
        }
    }

    private func send(_ card: Handle, _ proto: PCSCProtocol, _ command: [UInt8]) -> (PCSCStatus, response: [UInt8]) {
        let pci = proto == .t0 ? t0PCI : t1PCI
        var size = Self.shortBufferSize
        while true {
            var response = [UInt8](repeating: 0, count: size)
            var length = DWORD(size)
            let rc = PCSCStatus(transmit(card, pci, command, DWORD(command.count), nil, &response, &length))
            if rc == .insufficientBuffer, size < Self.extendedBufferSize {
                size = Self.extendedBufferSize
                continue
            }
            guard rc == .success else { return (rc, []) }
            return (rc, Array(response.prefix(Int(min(length, DWORD(size))))))
        }
    }

    private func cardStatus(_ card: Handle) -> (PCSCStatus, state: UInt32, activeProtocol: PCSCProtocol, atr: [UInt8]) {
        var state: DWORD = 0
        var proto: DWORD = 0
        var atr = [UInt8](repeating: 0, count: PCSCReaderStateLayout.maximumATRSize)
        var atrLength = DWORD(atr.count)
        let rc = PCSCStatus(status(card, nil, nil, &state, &proto, &atr, &atrLength))
        guard rc == .success else { return (rc, 0, [], []) }
        return (
            rc, UInt32(truncatingIfNeeded: state), PCSCProtocol(rawValue: UInt32(truncatingIfNeeded: proto)),
            Array(atr.prefix(Int(min(atrLength, DWORD(atr.count)))))
        )
    }
}
