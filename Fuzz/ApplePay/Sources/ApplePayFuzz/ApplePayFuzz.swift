// libFuzzer target for what the gateway parses from an Apple Pay payment: the token's JSON (a whole PKPaymentToken
// or its paymentData) and, beneath it, the CMS signature with its certificates. The first byte picks the layer, so
// mutations of the DER are not wasted on base64: 0 feeds the rest as token JSON through the decryptor, anything else
// as the signature of a real token (gala-2021, Tests/ApplePayTests/Fixtures) through signature verification, with
// the clock at that token's signing time so a well-formed input reaches the chain and signature checks. Every input
// must end in a result or an ApplePayError; any other error is a finding.
import ApplePay
import Foundation

// SwiftPM gives an executable its own `main`, which shadows libFuzzer's: start libFuzzer's driver from here.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

private let fixture = "Tests/ApplePayTests/Fixtures/gala-2021"

private let decryptor: PaymentTokenDecryptor = {
    do {
        let identity = try MerchantIdentity(
            certificatePEM: String(contentsOfFile: "\(fixture)/certificate.pem", encoding: .utf8),
            privateKeyPEM: String(contentsOfFile: "\(fixture)/private_key.pem", encoding: .utf8))
        let signingTime = Date(timeIntervalSince1970: 1_630_522_986)  // 2021-09-01T19:03:06Z
        return PaymentTokenDecryptor(merchants: [identity], now: { signingTime })
    } catch {
        fatalError("run from the project's root: \(fixture) cannot be read (\(error))")
    }
}()

private let realPaymentData: PaymentData = {
    guard let json = FileManager.default.contents(atPath: "\(fixture)/token.json"),
        let paymentData = try? JSONDecoder().decode(PaymentData.self, from: json)
    else { fatalError("run from the project's root: \(fixture)/token.json cannot be read") }
    return paymentData
}()

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    do {
        if data[0] == 0 {
            guard let paymentData = decode(input) else { return 0 }
            _ = try decryptor.decryptWithoutReplayCheck(paymentData)
        } else {
            var paymentData = realPaymentData
            paymentData.signature = input.base64EncodedString()
            _ = try decryptor.verifySignature(of: paymentData)
        }
    } catch is ApplePayError {
        // The typed refusal every bad token must get.
    } catch {
        fatalError("an untyped error escaped the Apple Pay parsers: \(type(of: error))")
    }
    return 0
}

/// The token JSON as the decryptor reads it: a whole token, or its paymentData alone.
private func decode(_ json: Data) -> PaymentData? {
    let decoder = JSONDecoder()
    if let token = try? decoder.decode(PaymentToken.self, from: json) { return token.paymentData }
    return try? decoder.decode(PaymentData.self, from: json)
}

// Last: this file is the program's top-level code, so the globals above are set only once it reaches them.
var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argumentCount, &arguments, fuzz))
