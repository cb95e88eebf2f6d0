public import EMV
import Foundation
public import ServiceLifecycle

/// Connects a card applet to vsmartcard's vpcd as a virtual smart card, so any PC/SC application on the machine
/// (pcscd, pcsc_scan, emvtool, `tap read --pcsc`) sees it in the virtual reader.
///
/// A swift-service-lifecycle `Service`: run it in a `ServiceGroup`, and cancellation or graceful shutdown stops it
/// at once, even while it waits for vpcd, closing the connection (the card leaves the reader). The socket work runs
/// on a thread of its own, so waiting on vpcd never blocks Swift's cooperative pool.
///
/// The link connects to vpcd, hands each frame to a ``VirtualCard`` and writes back what it answers. When vpcd
/// closes the connection (pcscd stopped or restarted) the card is removed and the link reconnects, waiting
/// `reconnectDelay.lowerBound` after the first failure and doubling up to `reconnectDelay.upperBound`.
///
/// ```swift
/// let link = try VirtualCardLink(applet: card, endpoint: .local) { event in print(event) }
/// let group = ServiceGroup(configuration: .init(
///     services: [link], gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
/// try await group.run()
/// let atc = link.withCard { $0.applet.lastATC }      // the card after the session
/// ```
///
/// Never connect to vpcd's port just to test it: a connection is a card inserted in the reader.
public final class VirtualCardLink<Applet: CardApplet>: Service, Sendable {
    /// Where vpcd listens.
    public let endpoint: VPCDEndpoint
    /// The wait before reconnecting: from the lower bound after the first failure, doubling up to the upper (at
    /// least a millisecond).
    public let reconnectDelay: ClosedRange<Duration>
    /// How long one connection attempt may take.
    public let connectTimeout: Duration

    private let card: Locked<VirtualCard<Applet>>
    private let onEvent: @Sendable (VirtualCardEvent) -> Void

    /// Creates a link for `applet`; nothing connects before ``run()``.
    ///
    /// - Parameters:
    ///   - answerToReset: the ATR the card gives (default ``VirtualCard/defaultAnswerToReset``).
    ///   - uid: the UID PC/SC's GET DATA reports (default: a random one; see ``VirtualCard``).
    ///   - onEvent: called on the link's thread for each ``VirtualCardEvent``; keep it short.
    /// - Throws: ``VPCDError/Code/invalidATR``, ``VPCDError/Code/invalidUID``.
    public init(
        applet: Applet,
        endpoint: VPCDEndpoint = .local,
        answerToReset: [UInt8] = VirtualCard<Applet>.defaultAnswerToReset,
        uid: [UInt8]? = nil,
        reconnectDelay: ClosedRange<Duration> = .milliseconds(50) ... .seconds(1),
        connectTimeout: Duration = .seconds(5),
        onEvent: @escaping @Sendable (VirtualCardEvent) -> Void = { _ in }
    ) throws(VPCDError) {
        self.card = Locked(try VirtualCard(applet: applet, answerToReset: answerToReset, uid: uid))
        self.endpoint = endpoint
        // A zero delay would double to zero and spin; a millisecond is the floor.
        let floor = Duration.milliseconds(1)
        self.reconnectDelay = max(reconnectDelay.lowerBound, floor)...max(reconnectDelay.upperBound, floor)
        self.connectTimeout = connectTimeout
        self.onEvent = onEvent
    }

    /// Reads or changes the card, between commands: the wallet authenticating the cardholder, a summary at the end.
    public func withCard<Result, Failure: Error>(
        _ body: (inout VirtualCard<Applet>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try card.withValue(body)
    }

    /// Serves vpcd until the task is cancelled or the service group shuts down gracefully; reconnects meanwhile.
    ///
    /// Run one at a time: a second concurrent run would be a second card with the same state.
    /// - Throws: ``VPCDError/Code/socketFailed`` only when the process cannot open the wake-up pipe.
    public func run() async throws {
        let wakeup = try Wakeup()
        await withTaskCancellationOrGracefulShutdownHandler {
            await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                let thread = Thread {
                    self.serve(wakeup: wakeup)
                    finished.resume()
                }
                thread.name = "vpcd \(endpoint)"
                // The applet signs (RSA for fDDA and CDA) on this thread: give it a main thread's stack, not 512 KiB.
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancelOrGracefulShutdown: {
            wakeup.signal()
        }
    }

    // MARK: - The link's thread

    /// Connects, serves, reconnects, until woken.
    private func serve(wakeup: Wakeup) {
        var delay = reconnectDelay.lowerBound
        var attempt = 0
        while !wakeup.isSignalled {
            let connection: VPCDConnection
            do {
                guard
                    let connected = try VPCDConnection.connect(
                        to: endpoint, timeoutMilliseconds: Self.milliseconds(connectTimeout), wakeup: wakeup)
                else { break }
                connection = connected
            } catch {
                attempt += 1
                onEvent(.connectionFailed(error, attempt: attempt, retryAfter: delay))
                if wakeup.wait(milliseconds: Self.milliseconds(delay)) { break }
                delay = min(delay * 2, reconnectDelay.upperBound)
                continue
            }
            delay = reconnectDelay.lowerBound
            attempt = 0
            onEvent(.connected(endpoint))
            let ending = converse(over: connection)
            card.withValue { $0.remove() }
            guard let ending else { break }
            onEvent(.disconnected(ending))
        }
        onEvent(.stopped)
    }

    /// Serves one connection; returns why it ended, or nil when woken.
    private func converse(over connection: VPCDConnection) -> VPCDError? {
        var decoder = VPCDFrameDecoder()
        // A frame is at most 2 + 65,535 bytes; one read can take any of them whole.
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: 2 + VPCDFrame.maximumPayloadLength, alignment: 1)
        defer { buffer.deallocate() }
        do throws(VPCDError) {
            while true {
                while true {
                    let frame: VPCDFrame
                    do throws(VPCDError) {
                        guard let next = try decoder.nextFrame() else { break }
                        frame = next
                    } catch {
                        onEvent(.frameRejected(error))
                        continue
                    }
                    let output = card.withValue { $0.receive(frame) }
                    // Answer first: vpcd (and the application behind it) waits for the reply, not for the log.
                    if let reply = output.reply, try !connection.send(VPCDFrame.frame(reply)) { return nil }
                    if let event = Self.event(for: frame) { onEvent(event) }
                    if let problem = output.problem { onEvent(.frameRejected(problem)) }
                }
                guard let count = try connection.receive(into: buffer) else { return nil }
                if count == 0 {
                    try decoder.finish()
                    return VPCDError(code: .connectionClosed, message: "vpcd closed the connection")
                }
                decoder.append(buffer[..<count])
            }
        } catch {
            return error
        }
    }

    private static func event(for frame: VPCDFrame) -> VirtualCardEvent? {
        switch frame {
        case .powerOn: .poweredOn
        case .powerOff: .poweredOff
        case .reset: .reset
        case .getATR: .answerToResetSent
        case .command: nil
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(total, 0))
    }
}
