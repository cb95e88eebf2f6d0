import EMV
import ISO8583

extension IssuerHost {
    /// 0400/0420: restores the balance of the authorization with the request's STAN, RRN and terminal id (fields
    /// 11, 37, 41) of the card in field 2 (or of a DPAN's funding card), once; a repeated reversal is acknowledged with `00` and changes nothing.
    func reverse(_ request: ISO8583Message) async -> ISO8583Message {
        guard let panText = request[.pan]?.text, let pan = try? PAN(panText),
            let reference = AuthorizationReference(request)
        else { return response(to: request, code: .formatError) }
        do {
            // A token payment's authorization is the funding account's: the vault maps the DPAN to it.
            let keyedPAN = try await tokenVault?.tokens.token(keys.keyedHash(of: pan))?.fundingKeyedPAN
            switch try await repository.reverse(reference, of: keyedPAN ?? keys.keyedHash(of: pan)) {
            case .reversed, .alreadyReversed: return response(to: request, code: .approved)
            case .notFound: return response(to: request, code: .originalNotFound)
            }
        } catch {
            return response(to: request, code: .systemMalfunction)
        }
    }
}
