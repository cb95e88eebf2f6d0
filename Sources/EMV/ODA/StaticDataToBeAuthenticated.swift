/// The static data to be authenticated that SDA signatures and ICC public key certificates cover (EMV Book 3,
/// 10.3): the records the AFL flags for offline data authentication, then the AIP when the SDA Tag List (9F4A)
/// names it.
public struct StaticDataToBeAuthenticated: Hashable, Sendable {
    /// The concatenated data to hash.
    public let bytes: [UInt8]

    /// Builds the data from the AFL and the records the card returned.
    ///
    /// Records of files with SFI 1 to 10 contribute the value of their '70' template (tag and length excluded,
    /// and a record that is not one '70' template fails); records of SFI 11 to 30 contribute the whole record.
    ///
    /// - Parameters:
    ///   - afl: the Application File Locator (tag 94): 4-byte entries SFI << 3, first record, last record, number of
    ///     records from the first one that take part in offline data authentication.
    ///   - record: the READ RECORD response data for an SFI and record number, nil when it was not read.
    ///   - applicationInterchangeProfile: the AIP (tag 82), needed when the tag list names it.
    ///   - staticDataAuthenticationTagList: the value of tag 9F4A when present; it may only list tag '82'.
    /// - Throws: ``ODAError/invalidStaticData`` for a malformed AFL, a missing or malformed record, a tag list
    ///   other than '82', or a missing AIP.
    public init(
        afl: [UInt8],
        record: (_ sfi: UInt8, _ number: UInt8) -> [UInt8]?,
        applicationInterchangeProfile: [UInt8]? = nil,
        staticDataAuthenticationTagList: [UInt8]? = nil
    ) throws {
        guard let locator = ApplicationFileLocator(bytes: afl) else {
            throw ODAError(.invalidStaticData, "the AFL is malformed")
        }
        var bytes: [UInt8] = []
        for entry in locator.records where entry.isAuthenticated {
            guard let data = record(entry.sfi, entry.number) else {
                throw ODAError(.invalidStaticData, "record \(entry.number) of SFI \(entry.sfi) was not read")
            }
            if entry.sfi <= 10 {
                guard let value = Self.recordTemplateValue(data) else {
                    throw ODAError(
                        .invalidStaticData, "record \(entry.number) of SFI \(entry.sfi) is not one '70' template")
                }
                bytes += value
            } else {
                bytes += data
            }
        }
        if let tagList = staticDataAuthenticationTagList {
            guard tagList == [0x82] else {
                throw ODAError(.invalidStaticData, "SDA tag list may only name the AIP ('82')")
            }
            guard let aip = applicationInterchangeProfile, aip.count == 2 else {
                throw ODAError(.invalidStaticData, "SDA tag list names the AIP but no 2-byte AIP is given")
            }
            bytes += aip
        }
        self.bytes = bytes
    }

    /// Wraps bytes already assembled elsewhere.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The value of a record that is exactly one '70' template with a 1 to 3 byte BER length; nil otherwise.
    static func recordTemplateValue(_ record: [UInt8]) -> ArraySlice<UInt8>? {
        guard record.count >= 2, record[0] == 0x70 else { return nil }
        var offset = 1
        var length = Int(record[offset])
        offset += 1
        if length > 0x80 {
            let lengthBytes = length - 0x80
            guard lengthBytes <= 2, record.count >= offset + lengthBytes else { return nil }
            length = record[offset..<(offset + lengthBytes)].reduce(0) { $0 << 8 | Int($1) }
            offset += lengthBytes
        } else if length == 0x80 {
            return nil
        }
        guard record.count - offset == length else { return nil }
        return record[offset...]
    }
}
