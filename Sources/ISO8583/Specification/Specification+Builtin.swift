// The tables below follow pyiso8583 4.0.1 `iso8583/specs.py` (`default`, `default_ascii`) field for field; the
// numeric marks follow the ISO 8583:1987 data element types (`n`). Field 65 is left out: pyiso8583 reads bit 65 as a
// tertiary bitmap, which this codec does not support, so a message with bit 65 set is `fieldNotInSpecification`.

extension Specification {
    /// pyiso8583's `default`: binary bitmaps, ASCII MTI, text and length prefixes, binary fields 52, 55 (LLLVAR, up to
    /// 255 bytes), 64, 96 and 128.
    public static let `default` = Specification(
        name: "default", messageTypeEncoding: .ascii, primaryBitmapEncoding: .binary, secondaryBitmapEncoding: .binary,
        fields: table(binary: true))

    /// pyiso8583's `default_ascii`: everything ASCII, bitmaps as 16 hex digits, binary fields as hex text (field 55
    /// up to 510 hex digits).
    public static let defaultASCII = Specification(
        name: "default_ascii", messageTypeEncoding: .ascii, primaryBitmapEncoding: .ascii,
        secondaryBitmapEncoding: .ascii, fields: table(binary: false))

    /// The gateway↔issuer dialect of this project: ``default`` with field 55 (ICC data) a binary LLLVAR of up to 999
    /// bytes, since EMV ICC data with an issuer script can exceed 255 bytes, and field 52 (PIN data) a binary LLVAR of
    /// up to 16 bytes, so it carries ISO 9564 format 4 blocks (16 bytes, the format the design requires) as well as
    /// the 8-byte formats 0 and 3.
    public static let contactless: Specification = {
        var specification = Specification.default
        specification.name = "contactless"
        specification[field: 55]?.maximumLength = 999
        specification[field: 52]?.lengthPrefixBytes = 2
        specification[field: 52]?.maximumLength = 16
        return specification
    }()

    /// The built-in specifications by name: `default`, `default_ascii`, `contactless`.
    public static let builtIn: [String: Specification] = [
        "default": .default, "default_ascii": .defaultASCII, "contactless": .contactless,
    ]

    /// Field layouts shared by `default` and `default_ascii`: (number, name, prefix bytes, maximum length, numeric,
    /// binary in `default`).
    private static let rows: [(Int, String, Int, Int, Bool, Bool)] = [
        (2, "Primary Account Number (PAN)", 2, 19, true, false),
        (3, "Processing Code", 0, 6, true, false),
        (4, "Amount, Transaction", 0, 12, true, false),
        (5, "Amount, Settlement", 0, 12, true, false),
        (6, "Amount, Cardholder Billing", 0, 12, true, false),
        (7, "Transmission Date and Time", 0, 10, true, false),
        (8, "Amount, Cardholder Billing Fee", 0, 8, true, false),
        (9, "Conversion Rate, Settlement", 0, 8, true, false),
        (10, "Conversion Rate, Cardholder Billing", 0, 8, true, false),
        (11, "System Trace Audit Number", 0, 6, true, false),
        (12, "Time, Local Transaction", 0, 6, true, false),
        (13, "Date, Local Transaction", 0, 4, true, false),
        (14, "Date, Expiration", 0, 4, true, false),
        (15, "Date, Settlement", 0, 4, true, false),
        (16, "Date, Conversion", 0, 4, true, false),
        (17, "Date, Capture", 0, 4, true, false),
        (18, "Merchant Type", 0, 4, true, false),
        (19, "Acquiring Institution Country Code", 0, 3, true, false),
        (20, "PAN Country Code", 0, 3, true, false),
        (21, "Forwarding Institution Country Code", 0, 3, true, false),
        (22, "Point-of-Service Entry Mode", 0, 3, true, false),
        (23, "PAN Sequence Number", 0, 3, true, false),
        (24, "Network International ID (NII)", 0, 3, true, false),
        (25, "Point-of-Service Condition Code", 0, 2, true, false),
        (26, "Point-of-Service Capture Code", 0, 2, true, false),
        (27, "Authorizing ID Response Length", 0, 1, true, false),
        (28, "Amount, Transaction Fee", 0, 9, false, false),
        (29, "Amount, Settlement Fee", 0, 9, false, false),
        (30, "Amount, Transaction Processing Fee", 0, 9, false, false),
        (31, "Amount, Settlement Processing Fee", 0, 9, false, false),
        (32, "Acquiring Institution ID Code", 2, 11, true, false),
        (33, "Forwarding Institution ID Code", 2, 11, true, false),
        (34, "Primary Account Number, Extended", 2, 28, false, false),
        (35, "Track 2 Data", 2, 37, false, false),
        (36, "Track 3 Data", 3, 104, false, false),
        (37, "Retrieval Reference Number", 0, 12, false, false),
        (38, "Authorization ID Response", 0, 6, false, false),
        (39, "Response Code", 0, 2, false, false),
        (40, "Service Restriction Code", 0, 3, false, false),
        (41, "Card Acceptor Terminal ID", 0, 8, false, false),
        (42, "Card Acceptor ID Code", 0, 15, false, false),
        (43, "Card Acceptor Name/Location", 0, 40, false, false),
        (44, "Additional Response Data", 2, 25, false, false),
        (45, "Track 1 Data", 2, 76, false, false),
        (46, "Additional Data - ISO", 3, 999, false, false),
        (47, "Additional Data - National", 3, 999, false, false),
        (48, "Additional Data - Private", 3, 999, false, false),
        (49, "Currency Code, Transaction", 0, 3, true, false),
        (50, "Currency Code, Settlement", 0, 3, true, false),
        (51, "Currency Code, Cardholder Billing", 0, 3, true, false),
        (52, "PIN", 0, 8, false, true),
        (53, "Security-Related Control Information", 0, 16, true, false),
        (54, "Additional Amounts", 3, 240, false, false),
        (55, "ICC data", 3, 255, false, true),
        (56, "Reserved ISO", 3, 999, false, false),
        (57, "Reserved National", 3, 999, false, false),
        (58, "Reserved National", 3, 999, false, false),
        (59, "Reserved National", 3, 999, false, false),
        (60, "Reserved National", 3, 999, false, false),
        (61, "Reserved Private", 3, 999, false, false),
        (62, "Reserved Private", 3, 999, false, false),
        (63, "Reserved Private", 3, 999, false, false),
        (64, "MAC", 0, 8, false, true),
        (66, "Settlement Code", 0, 1, true, false),
        (67, "Extended Payment Code", 0, 2, true, false),
        (68, "Receiving Institution Country Code", 0, 3, true, false),
        (69, "Settlement Institution Country Code", 0, 3, true, false),
        (70, "Network Management Information Code", 0, 3, true, false),
        (71, "Message Number", 0, 4, true, false),
        (72, "Message Number, Last", 0, 4, true, false),
        (73, "Date, Action", 0, 6, true, false),
        (74, "Credits, Number", 0, 10, true, false),
        (75, "Credits, Reversal Number", 0, 10, true, false),
        (76, "Debits, Number", 0, 10, true, false),
        (77, "Debits, Reversal Number", 0, 10, true, false),
        (78, "Transfer, Number", 0, 10, true, false),
        (79, "Transfer, Reversal Number", 0, 10, true, false),
        (80, "Inquiries, Number", 0, 10, true, false),
        (81, "Authorizations, Number", 0, 10, true, false),
        (82, "Credits, Processing Fee Amount", 0, 12, true, false),
        (83, "Credits, Transaction Fee Amount", 0, 12, true, false),
        (84, "Debits, Processing Fee Amount", 0, 12, true, false),
        (85, "Debits, Transaction Fee Amount", 0, 12, true, false),
        (86, "Credits, Amount", 0, 16, true, false),
        (87, "Credits, Reversal Amount", 0, 16, true, false),
        (88, "Debits, Amount", 0, 16, true, false),
        (89, "Debits, Reversal Amount", 0, 16, true, false),
        (90, "Original Data Elements", 0, 42, true, false),
        (91, "File Update Code", 0, 1, false, false),
        (92, "File Security Code", 0, 2, false, false),
        (93, "Response Indicator", 0, 5, false, false),
        (94, "Service Indicator", 0, 7, false, false),
        (95, "Replacement Amounts", 0, 42, false, false),
        (96, "Message Security Code", 0, 8, false, true),
        (97, "Amount, Net Settlement", 0, 17, false, false),
        (98, "Payee", 0, 25, false, false),
        (99, "Settlement Institution ID Code", 2, 11, true, false),
        (100, "Receiving Institution ID Code", 2, 11, true, false),
        (101, "File Name", 2, 17, false, false),
        (102, "Account ID 1", 2, 28, false, false),
        (103, "Account ID 2", 2, 28, false, false),
        (104, "Transaction Description", 3, 100, false, false),
        (105, "Reserved for ISO Use", 3, 999, false, false),
        (106, "Reserved for ISO Use", 3, 999, false, false),
        (107, "Reserved for ISO Use", 3, 999, false, false),
        (108, "Reserved for ISO Use", 3, 999, false, false),
        (109, "Reserved for ISO Use", 3, 999, false, false),
        (110, "Reserved for ISO Use", 3, 999, false, false),
        (111, "Reserved for ISO Use", 3, 999, false, false),
        (112, "Reserved for National Use", 3, 999, false, false),
        (113, "Reserved for National Use", 3, 999, false, false),
        (114, "Reserved for National Use", 3, 999, false, false),
        (115, "Reserved for National Use", 3, 999, false, false),
        (116, "Reserved for National Use", 3, 999, false, false),
        (117, "Reserved for National Use", 3, 999, false, false),
        (118, "Reserved for National Use", 3, 999, false, false),
        (119, "Reserved for National Use", 3, 999, false, false),
        (120, "Reserved for Private Use", 3, 999, false, false),
        (121, "Reserved for Private Use", 3, 999, false, false),
        (122, "Reserved for Private Use", 3, 999, false, false),
        (123, "Reserved for Private Use", 3, 999, false, false),
        (124, "Reserved for Private Use", 3, 999, false, false),
        (125, "Reserved for Private Use", 3, 999, false, false),
        (126, "Reserved for Private Use", 3, 999, false, false),
        (127, "Reserved for Private Use", 3, 999, false, false),
        (128, "MAC", 0, 8, false, true),
    ]

    /// The `default` (binary fields raw) or `default_ascii` (binary fields as hex text of twice the length) table.
    private static func table(binary: Bool) -> [Int: FieldSpecification] {
        var fields: [Int: FieldSpecification] = [:]
        for (number, name, prefix, length, numeric, isBinary) in rows {
            fields[number] = FieldSpecification(
                name: name, dataEncoding: isBinary && binary ? .binary : .ascii, lengthPrefixBytes: prefix,
                maximumLength: isBinary && !binary ? length * 2 : length, content: numeric ? .numeric : .any)
        }
        return fields
    }
}
