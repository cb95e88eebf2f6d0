import Foundation
import GatewayAPI
import Testing

/// `UUID.timeOrdered()` makes RFC 9562 version 7 UUIDs: the time first, so they sort by creation.
@Suite struct TimeOrderedUUIDTests {
    @Test("version 7, RFC 9562 variant, the milliseconds in the first 48 bits")
    func layout() {
        let now = Date(timeIntervalSince1970: 1_763_769_600.123)  // 2025-11-22T00:00:00.123Z
        let uuid = UUID.timeOrdered(now: now)
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        let millis = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(millis == 1_763_769_600_123)
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
    }

    @Test("later milliseconds sort later, as strings too; the random bits differ within one millisecond")
    func order() {
        let start = Date(timeIntervalSince1970: 1_763_769_600)
        // 2 ms apart: a binary Date of a whole millisecond may fall just below it and truncate to the one before
        let uuids = (0..<100).map { UUID.timeOrdered(now: start.addingTimeInterval(Double($0) * 0.002)) }
        #expect(uuids.map(\.uuidString) == uuids.map(\.uuidString).sorted())
        let sameMillisecond = (0..<1000).map { _ in UUID.timeOrdered(now: start) }
        #expect(Set(sameMillisecond).count == 1000)
    }
}
