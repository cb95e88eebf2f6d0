import Foundation
import SmartCard

/// A scripted PC/SC library: readers with states, a card that answers each transmitted APDU through `respond`, and
/// a record of every call, so the reader code runs in tests without pcscd.
final class FakePCSC: @unchecked Sendable {
    // Sendable by hand: every access holds the lock.
    private let lock = NSLock()
    private var _readers: [PCSCReaderState] = []
    private var _transmitted: [[UInt8]] = []
    private var _calls: [String] = []

    /// What SCardEstablishContext returns.
    var establishStatus: PCSCStatus = .success
    /// What SCardListReaders returns (besides the names).
    var listStatus: PCSCStatus = .success
    /// What SCardConnect returns.
    var connectStatus: PCSCStatus = .success
    /// The protocol SCardConnect negotiates.
    var negotiated: PCSCProtocol = .t0
    /// The card state SCardStatus reports (SCARD_PRESENT | SCARD_POWERED | SCARD_SPECIFIC by default).
    var cardState: UInt32 = 0x54
    /// A failure for SCardTransmit (nil: the card answers through `respond`).
    var transmitStatus: PCSCStatus?
    /// The card: the response bytes (status word included) to each command's bytes.
    var respond: @Sendable ([UInt8]) -> [UInt8] = { _ in [0x90, 0x00] }
    /// The card arrives in the first reader after this many SCardGetStatusChange calls (nil: never).
    var cardArrivesAfterCalls: Int?

    init(readers: [PCSCReaderState] = []) { _readers = readers }

    var readers: [PCSCReaderState] {
        get { lock.withLock { _readers } }
        set { lock.withLock { _readers = newValue } }
    }
    var transmitted: [[UInt8]] { lock.withLock { _transmitted } }
    var calls: [String] { lock.withLock { _calls } }

    private func record(_ call: String) { lock.withLock { _calls.append(call) } }

    var functions: PCSCFunctions {
        PCSCFunctions(
            establishContext: { _ in
                self.record("establish")
                return (self.establishStatus, 7)
            },
            releaseContext: { _ in
                self.record("release")
                return .success
            },
            listReaders: { _ in
                self.record("list")
                guard self.listStatus == .success else { return (self.listStatus, []) }
                let names = self.readers.map(\.readerName)
                guard !names.isEmpty else { return (.noReadersAvailable, []) }
                return (.success, names.flatMap { Array($0.utf8) + [0] } + [0])
            },
            getStatusChange: { _, _, states in
                self.record("getStatusChange")
                let arrival = self.lock.withLock { () -> Bool in
                    guard let after = self.cardArrivesAfterCalls else { return false }
                    let count = self._calls.filter { $0 == "getStatusChange" }.count
                    return count > after
                }
                if arrival, var first = self.readers.first {
                    first.eventState = [.present, .changed]
                    first.atr = [0x3B, 0x80, 0x80, 0x01, 0x01]
                    self.readers[0] = first
                }
                let known = self.readers
                var changed = false
                for index in states.indices {
                    guard let reader = known.first(where: { $0.readerName == states[index].readerName }) else {
                        states[index].eventState = [.unknown, .changed]
                        return .unknownReader
                    }
                    let now = reader.eventState.subtracting(.changed)
                    let differs = now != states[index].currentState.subtracting(.changed)
                    changed = changed || differs
                    states[index].eventState = differs ? now.union(.changed) : now
                    states[index].atr = reader.atr
                }
                return changed ? .success : .timeout
            },
            connect: { _, reader, _, _ in
                self.record("connect \(reader)")
                guard self.connectStatus == .success else { return (self.connectStatus, 0, []) }
                guard self.readers.contains(where: { $0.readerName == reader }) else { return (.unknownReader, 0, []) }
                return (.success, 42, self.negotiated)
            },
            disconnect: { _, _ in
                self.record("disconnect")
                return .success
            },
            transmit: { _, _, command in
                self.lock.withLock { self._transmitted.append(command) }
                if let failure = self.transmitStatus { return (failure, []) }
                return (.success, self.respond(command))
            },
            status: { _ in (.success, self.cardState, self.negotiated, [0x3B, 0x80, 0x80, 0x01, 0x01]) },
            cancel: { _ in
                self.record("cancel")
                return .success
            })
    }
}
