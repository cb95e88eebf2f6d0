// Named constants for the tags code refers to most. The full list with formats and sources is
// `TagDictionary.standard`; tags whose meaning depends on the kernel have one constant per meaning.
extension Tag {
    // MARK: Templates

    /// `61` Application Template.
    public static let applicationTemplate: Tag = 0x61
    /// `6F` File Control Information (FCI) Template.
    public static let fileControlInformationTemplate: Tag = 0x6F
    /// `70` READ RECORD Response Message Template (EMV Proprietary Template).
    public static let recordTemplate: Tag = 0x70
    /// `71` Issuer Script Template 1.
    public static let issuerScriptTemplate1: Tag = 0x71
    /// `72` Issuer Script Template 2.
    public static let issuerScriptTemplate2: Tag = 0x72
    /// `73` Directory Discretionary Template.
    public static let directoryDiscretionaryTemplate: Tag = 0x73
    /// `77` Response Message Template Format 2.
    public static let responseMessageTemplateFormat2: Tag = 0x77
    /// `80` Response Message Template Format 1 (primitive: AIP followed by AFL, or CID ATC AC IAD).
    public static let responseMessageTemplateFormat1: Tag = 0x80
    /// `A5` File Control Information (FCI) Proprietary Template.
    public static let fciProprietaryTemplate: Tag = 0xA5
    /// `BF0C` File Control Information (FCI) Issuer Discretionary Data.
    public static let fciIssuerDiscretionaryData: Tag = 0xBF0C
    /// `83` Command Template (the GET PROCESSING OPTIONS data field).
    public static let commandTemplate: Tag = 0x83

    // MARK: Card data

    /// `4F` Application Identifier (AID) – card (ADF Name).
    public static let applicationIdentifier: Tag = 0x4F
    /// `50` Application Label.
    public static let applicationLabel: Tag = 0x50
    /// `56` Track 1 Data (sensitive).
    public static let track1Data: Tag = 0x56
    /// `57` Track 2 Equivalent Data (sensitive).
    public static let track2EquivalentData: Tag = 0x57
    /// `5A` Application Primary Account Number (PAN) (sensitive).
    public static let applicationPAN: Tag = 0x5A
    /// `5F20` Cardholder Name (sensitive).
    public static let cardholderName: Tag = 0x5F20
    /// `5F24` Application Expiration Date (YYMMDD).
    public static let applicationExpirationDate: Tag = 0x5F24
    /// `5F25` Application Effective Date (YYMMDD).
    public static let applicationEffectiveDate: Tag = 0x5F25
    /// `5F28` Issuer Country Code (ISO 3166-1 numeric).
    public static let issuerCountryCode: Tag = 0x5F28
    /// `5F2D` Language Preference.
    public static let languagePreference: Tag = 0x5F2D
    /// `5F30` Service Code.
    public static let serviceCode: Tag = 0x5F30
    /// `5F34` Application PAN Sequence Number.
    public static let panSequenceNumber: Tag = 0x5F34
    /// `82` Application Interchange Profile (AIP).
    public static let applicationInterchangeProfile: Tag = 0x82
    /// `84` Dedicated File (DF) Name.
    public static let dedicatedFileName: Tag = 0x84
    /// `87` Application Priority Indicator.
    public static let applicationPriorityIndicator: Tag = 0x87
    /// `8C` Card Risk Management Data Object List 1 (CDOL1).
    public static let cdol1: Tag = 0x8C
    /// `8D` Card Risk Management Data Object List 2 (CDOL2).
    public static let cdol2: Tag = 0x8D
    /// `8E` Cardholder Verification Method (CVM) List.
    public static let cvmList: Tag = 0x8E
    /// `8F` Certification Authority Public Key Index – card.
    public static let caPublicKeyIndex: Tag = 0x8F
    /// `90` Issuer Public Key Certificate.
    public static let issuerPublicKeyCertificate: Tag = 0x90
    /// `92` Issuer Public Key Remainder.
    public static let issuerPublicKeyRemainder: Tag = 0x92
    /// `93` Signed Static Application Data.
    public static let signedStaticApplicationData: Tag = 0x93
    /// `94` Application File Locator (AFL).
    public static let applicationFileLocator: Tag = 0x94
    /// `97` Transaction Certificate Data Object List (TDOL).
    public static let tdol: Tag = 0x97
    /// `9F07` Application Usage Control.
    public static let applicationUsageControl: Tag = 0x9F07
    /// `9F08` Application Version Number – card.
    public static let applicationVersionNumberCard: Tag = 0x9F08
    /// `9F0B` Cardholder Name Extended (sensitive).
    public static let cardholderNameExtended: Tag = 0x9F0B
    /// `9F0D` Issuer Action Code – Default.
    public static let issuerActionCodeDefault: Tag = 0x9F0D
    /// `9F0E` Issuer Action Code – Denial.
    public static let issuerActionCodeDenial: Tag = 0x9F0E
    /// `9F0F` Issuer Action Code – Online.
    public static let issuerActionCodeOnline: Tag = 0x9F0F
    /// `9F10` Issuer Application Data (IAD).
    public static let issuerApplicationData: Tag = 0x9F10
    /// `9F12` Application Preferred Name.
    public static let applicationPreferredName: Tag = 0x9F12
    /// `9F1F` Track 1 Discretionary Data (sensitive).
    public static let track1DiscretionaryData: Tag = 0x9F1F
    /// `9F20` Track 2 Discretionary Data (sensitive).
    public static let track2DiscretionaryData: Tag = 0x9F20
    /// `9F26` Application Cryptogram.
    public static let applicationCryptogram: Tag = 0x9F26
    /// `9F27` Cryptogram Information Data (CID).
    public static let cryptogramInformationData: Tag = 0x9F27
    /// `9F32` Issuer Public Key Exponent.
    public static let issuerPublicKeyExponent: Tag = 0x9F32
    /// `9F36` Application Transaction Counter (ATC).
    public static let applicationTransactionCounter: Tag = 0x9F36
    /// `9F38` Processing Options Data Object List (PDOL).
    public static let pdol: Tag = 0x9F38
    /// `9F42` Application Currency Code.
    public static let applicationCurrencyCode: Tag = 0x9F42
    /// `9F46` ICC Public Key Certificate.
    public static let iccPublicKeyCertificate: Tag = 0x9F46
    /// `9F47` ICC Public Key Exponent.
    public static let iccPublicKeyExponent: Tag = 0x9F47
    /// `9F48` ICC Public Key Remainder.
    public static let iccPublicKeyRemainder: Tag = 0x9F48
    /// `9F49` Dynamic Data Authentication Data Object List (DDOL).
    public static let ddol: Tag = 0x9F49
    /// `9F4A` Static Data Authentication Tag List.
    public static let staticDataAuthenticationTagList: Tag = 0x9F4A
    /// `9F4B` Signed Dynamic Application Data (SDAD).
    public static let signedDynamicApplicationData: Tag = 0x9F4B
    /// `9F4C` ICC Dynamic Number.
    public static let iccDynamicNumber: Tag = 0x9F4C
    /// `9F2A` Kernel Identifier.
    public static let kernelIdentifier: Tag = 0x9F2A

    // MARK: Terminal and transaction data

    /// `81` Amount, Authorised (Binary).
    public static let amountAuthorisedBinary: Tag = 0x81
    /// `8A` Authorisation Response Code.
    public static let authorisationResponseCode: Tag = 0x8A
    /// `91` Issuer Authentication Data.
    public static let issuerAuthenticationData: Tag = 0x91
    /// `95` Terminal Verification Results (TVR).
    public static let terminalVerificationResults: Tag = 0x95
    /// `99` Transaction Personal Identification Number (PIN) Data (sensitive).
    public static let transactionPINData: Tag = 0x99
    /// `9A` Transaction Date (YYMMDD).
    public static let transactionDate: Tag = 0x9A
    /// `9B` Transaction Status Information (TSI).
    public static let transactionStatusInformation: Tag = 0x9B
    /// `9C` Transaction Type.
    public static let transactionType: Tag = 0x9C
    /// `5F2A` Transaction Currency Code (ISO 4217 numeric).
    public static let transactionCurrencyCode: Tag = 0x5F2A
    /// `5F36` Transaction Currency Exponent.
    public static let transactionCurrencyExponent: Tag = 0x5F36
    /// `9F02` Amount, Authorised (Numeric).
    public static let amountAuthorised: Tag = 0x9F02
    /// `9F03` Amount, Other (Numeric).
    public static let amountOther: Tag = 0x9F03
    /// `9F06` Application Identifier (AID) – terminal.
    public static let terminalApplicationIdentifier: Tag = 0x9F06
    /// `9F09` Application Version Number – terminal.
    public static let applicationVersionNumberTerminal: Tag = 0x9F09
    /// `9F1A` Terminal Country Code.
    public static let terminalCountryCode: Tag = 0x9F1A
    /// `9F21` Transaction Time (HHMMSS).
    public static let transactionTime: Tag = 0x9F21
    /// `9F33` Terminal Capabilities.
    public static let terminalCapabilities: Tag = 0x9F33
    /// `9F34` Cardholder Verification Method (CVM) Results.
    public static let cvmResults: Tag = 0x9F34
    /// `9F35` Terminal Type.
    public static let terminalType: Tag = 0x9F35
    /// `9F37` Unpredictable Number.
    public static let unpredictableNumber: Tag = 0x9F37
    /// `9F39` Point-of-Service (POS) Entry Mode.
    public static let posEntryMode: Tag = 0x9F39
    /// `9F40` Additional Terminal Capabilities.
    public static let additionalTerminalCapabilities: Tag = 0x9F40
    /// `9F45` Data Authentication Code.
    public static let dataAuthenticationCode: Tag = 0x9F45
    /// `9F4E` Merchant Name and Location.
    public static let merchantNameAndLocation: Tag = 0x9F4E

    // MARK: Contactless tags whose meaning depends on the kernel

    /// `9F66` Terminal Transaction Qualifiers (TTQ), EMV Book A and Kernel 3; Kernel 2 reads `9F66` from the
    /// card as ``punatcTrack2``.
    public static let terminalTransactionQualifiers: Tag = 0x9F66
    /// `9F66` Track 2 Bit Map for UN and ATC (PUNATC(Track2)), Kernel 2 only.
    public static let punatcTrack2: Tag = 0x9F66
    /// `9F69` UDOL, Kernel 2.
    public static let udol: Tag = 0x9F69
    /// `9F69` Card Authentication Related Data (fDDA), Kernel 3.
    public static let cardAuthenticationRelatedData: Tag = 0x9F69
    /// `9F6B` Track 2 Data, Kernel 2 (sensitive).
    public static let track2Data: Tag = 0x9F6B
    /// `9F6C` Mag-stripe Application Version Number (Card), Kernel 2.
    public static let magStripeApplicationVersionNumberCard: Tag = 0x9F6C
    /// `9F6C` Card Transaction Qualifiers (CTQ), Kernel 3.
    public static let cardTransactionQualifiers: Tag = 0x9F6C
    /// `9F5D` Application Capabilities Information, Kernel 2.
    public static let applicationCapabilitiesInformation: Tag = 0x9F5D
    /// `9F5D` Available Offline Spending Amount, Kernel 3.
    public static let availableOfflineSpendingAmount: Tag = 0x9F5D
    /// `9F6E` Third Party Data, Kernel 2.
    public static let thirdPartyData: Tag = 0x9F6E
    /// `9F6E` Form Factor Indicator, Kernel 3.
    public static let formFactorIndicator: Tag = 0x9F6E

    // MARK: Kernel 2 outcome data

    /// `DF8115` Error Indication, Kernel 2.
    public static let errorIndication: Tag = 0xDF8115
    /// `DF8116` User Interface Request Data, Kernel 2.
    public static let userInterfaceRequestData: Tag = 0xDF8116
    /// `DF8129` Outcome Parameter Set, Kernel 2.
    public static let outcomeParameterSet: Tag = 0xDF8129
}
