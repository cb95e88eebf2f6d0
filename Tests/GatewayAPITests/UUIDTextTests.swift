import Foundation
import GatewayAPI
import Testing

/// `UUID.uppercaseText`, `lowercaseText` and `UUID(text:)` agree with Foundation's `uuidString` and
/// `UUID(uuidString:)`, which they replace on the payment path.
@Suite struct UUIDTextTests {
    @Test("the same text as Foundation, both cases, and back")
    func agreesWithFoundation() {
        var uuids = (0..<2000).map { _ in UUID() }
        uuids += [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), .timeOrdered()]
        uuids.append(UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))
        for uuid in uuids {
            #expect(uuid.uppercaseText == uuid.uuidString)
            #expect(uuid.lowercaseText == uuid.uuidString.lowercased())
            #expect(UUID(text: uuid.uppercaseText) == uuid)
            #expect(UUID(text: uuid.lowercaseText) == uuid)
            #expect(UUID(text: uuid.lowercaseText) == UUID(uuidString: uuid.lowercaseText))
        }
    }

    @Test(
        "anything but the 8-4-4-4-12 form of hex digits is refused",
        arguments: [
            "", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0",
            "E621E1F8C36C-495A-93FC-0C247A3E6E5F-", "E621E1F8-C36C-495A-93FC_0C247A3E6E5F",
            "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5g",
            "+621E1F8-C36C-495A-93FC-0C247A3E6E5F", " 621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            "E621E1F8-C36C-495A-93FC-0C247A3E6É5", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
        ])
    func malformed(_ text: String) {
        #expect(UUID(text: text) == nil)
    }

    @Test("a substring's text parses too")
    func substring() {
        let uuid = UUID()
        let text = "read " + uuid.lowercaseText
        #expect(UUID(text: String(text.dropFirst(5))) == uuid)
    }
}
