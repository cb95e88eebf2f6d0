/// Which BER-TLV encodings a parser accepts beyond the one canonical form our serializer writes.
///
/// - ``strict``: exactly what ``TLV/Serializer`` produces: no padding, lengths in their shortest form. Use it for
///   data we compose or that a protocol peer must send canonically (our own card applet, kernel data exchange).
/// - ``lenient``: what EMV cards in the wild send and EMV Book 3 Annex B allows: `00` and `FF` bytes before,
///   between and after objects are skipped, and lengths may use a longer form than needed (`81 05`).
///   Consequence: tags whose first byte is `FF` (Book C-2's kernel-internal templates `FF8101`…) read only under
///   strict rules, because lenient rules take that byte for padding.
///
/// Both rule sets reject indefinite lengths, lengths of more than three bytes, tags of more than three bytes,
/// truncation and over-deep nesting.
public struct EncodingRules: Hashable, Sendable {
    /// Whether `00`/`FF` bytes between objects are skipped as padding (otherwise ``TLVError/paddingNotAllowed``).
    public var allowsPadding: Bool
    /// Whether `81 xx` with `xx < 80` and `82 00 xx` are accepted (otherwise ``TLVError/nonMinimalLength``).
    public var allowsNonMinimalLengths: Bool

    /// Creates rules from their individual switches.
    public init(allowsPadding: Bool, allowsNonMinimalLengths: Bool) {
        self.allowsPadding = allowsPadding
        self.allowsNonMinimalLengths = allowsNonMinimalLengths
    }

    /// The canonical encoding only: what ``TLV/Serializer`` writes.
    public static let strict = EncodingRules(allowsPadding: false, allowsNonMinimalLengths: false)

    /// Everything EMV Book 3 Annex B allows: padding and non-minimal lengths.
    public static let lenient = EncodingRules(allowsPadding: true, allowsNonMinimalLengths: true)
}
