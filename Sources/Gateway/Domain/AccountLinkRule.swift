public import GatewayAPI

/// Who may accept the Terms and Conditions, when (ProximityReader's `linkAccount` / `relinkAccount`).
///
/// Pure: the repository runs it inside the transaction that records the acceptance, so two concurrent links can't
/// both pass.
public enum AccountLinkRule {
    /// Checks that `caller` (a reader token) may link its merchant whose account is `isLinked`.
    /// - Throws: ``GatewayAPIError/Code/adminRequired`` for staff, ``GatewayAPIError/Code/accountAlreadyLinked``
    ///   for a link without `relink` to a linked account, ``GatewayAPIError/Code/relinkNotAllowed`` for a relink
    ///   with a token that does not allow it.
    public static func check(caller: Caller, relink: Bool, isLinked: Bool) throws(GatewayAPIError) {
        guard caller.isAdmin else {
            throw GatewayAPIError(code: .adminRequired, message: "only a merchant admin may accept the terms")
        }
        if relink {
            guard caller.allowsRelinking else {
                throw GatewayAPIError(code: .relinkNotAllowed, message: "the reader token does not allow relinking")
            }
        } else if isLinked {
            throw GatewayAPIError(
                code: .accountAlreadyLinked,
                message: "the account is already linked; relink with a token that allows it")
        }
    }
}
