import Foundation
import TapToPay

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The PIN pad of `tap reader` on its terminal: asks on /dev/tty and reads the digits with echo off, until the
/// entry's deadline. An empty line bypasses PIN entry (the issuer decides), Ctrl-D cancels it.
enum TerminalPINPad {
    static func enter(_ request: PINEntryRequest) async -> PINEntry {
        await Task.detached { read(until: request.deadline) }.value
    }

    private static func read(until deadline: Date) -> PINEntry {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return .cancelled }
        defer { close(fd) }
        var saved = termios()
        let isTerminal = tcgetattr(fd, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSANOW, &quiet)
        }
        defer { if isTerminal { tcsetattr(fd, TCSANOW, &saved) } }
        let prompt = "PIN (the customer types it here; Enter to finish): "
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        var digits: [UInt8] = []
        defer {
            _ = "\n".withCString { write(fd, $0, 1) }
            for index in digits.indices { digits[index] = 0 }
        }
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return .timedOut }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            var byte: UInt8 = 0
            guard Glibc.read(fd, &byte, 1) == 1 else { return .cancelled }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                return digits.isEmpty ? .bypassed : .entered(String(decoding: digits, as: UTF8.self))
            case UInt8(ascii: "0")...UInt8(ascii: "9") where digits.count < 12:
                digits.append(byte)
            case 0x04:
                return .cancelled
            default:
                continue
            }
        }
    }
}
