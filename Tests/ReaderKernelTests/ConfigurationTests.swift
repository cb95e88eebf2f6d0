import EMV
import Foundation
import ReaderKernel
import Testing

@Suite struct ConfigurationTests {
    @Test func defaultConfigurationRoundTripsThroughJSON() throws {
        let configuration = ReaderConfiguration.default(caPublicKeys: try RealCards.caKeys())
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(configuration)
        let decoded = try JSONDecoder().decode(ReaderConfiguration.self, from: json)
        #expect(decoded.terminalCountry == .deu)
        #expect(decoded.applications == configuration.applications)
        #expect(decoded.limits == configuration.limits)
        #expect(decoded.kernel2 == configuration.kernel2)
        #expect(decoded.kernel3 == configuration.kernel3)
        #expect(decoded.caPublicKeys.keys == configuration.caPublicKeys.keys)
        #expect(try encoder.encode(decoded) == json)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"A0000000031010\""))
        #expect(text.contains("\"EUR\""))
    }

    @Test func defaultLimits() throws {
        let configuration = ReaderConfiguration.default(caPublicKeys: try CAPublicKeyList())
        for currency in [Currency.eur, .usd] {
            for kernel in [UInt8(2), 3] {
                let limits = try #require(configuration.limits(kernelID: kernel, currency: currency))
                #expect(limits.contactlessTransactionLimit == 50_000)
                #expect(limits.cvmRequiredLimit == 5_000)
                #expect(limits.floorLimit == 0)
            }
        }
        #expect(configuration.limits(kernelID: 3, currency: .gbp) == nil)
    }

    @Test func aBadTTQIsRejected() throws {
        let json = Data(#"{"terminalTransactionQualifiers": "2700"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Kernel3Settings.self, from: json) }
    }

    @Test func authorizationDataNeverShowsThePAN() async throws {
        let result = try await RealCards.kernel().perform(
            RealCards.euros(1000), over: ScriptedChannel(try RealCards.lloydsVisa()))
        let data = try #require(result.outcome.authorizationData)
        var dumped = ""
        dump(data, to: &dumped)
        var dumpedOutcome = ""
        dump(result.outcome, to: &dumpedOutcome)
        let transcript =
            result.events.map(\.description).joined(separator: "\n") + result.exchanges.map(\.description).joined()
        for text in ["\(data)", String(reflecting: data), dumped, dumpedOutcome, "\(result.outcome)", transcript] {
            #expect(!text.contains("4921828094896752"))
            #expect(!text.contains("094896"))
        }
        #expect("\(data)".contains("492182******6752"))
    }
}
