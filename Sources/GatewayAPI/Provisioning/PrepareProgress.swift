public import Foundation

/// One line of the prepare stream: the answer to `POST /v1/devices/{deviceId}/prepare` is
/// `application/x-ndjson`, one JSON object per line, each ending in `\n`.
///
/// A device's first prepare reports each stage as it completes, so an SDK can show `updateProgress(0…100)`:
///
/// ```
/// {"progress":0,"stage":"started"}
/// {"progress":25,"stage":"deviceRegistered"}
/// {"progress":50,"stage":"pinKeyStored"}
/// {"progress":75,"stage":"configurationBuilt"}
/// {"progress":100,"provisioning":{…},"stage":"sessionIssued"}
/// ```
///
/// Later prepares send only the last line. Refusals known before the stream starts (`accountNotLinked`,
/// `merchantBlocked`, …) are ordinary problem responses; a failure after it started ends the stream with a line
/// holding ``error`` instead of ``provisioning``. The stream is complete only with a line holding one of the two.
public struct PrepareProgress: Sendable, Hashable, Codable {
    /// The stream's media type.
    public static let mediaType = "application/x-ndjson"

    /// Percent done, 0…100.
    public var progress: Int
    /// The stage just completed.
    public var stage: Stage?
    /// On the last line of a successful prepare: the provisioning.
    public var provisioning: ReaderProvisioning?
    /// On the last line of a failed prepare: what went wrong.
    public var error: Problem?

    /// Creates a line.
    public init(progress: Int, stage: Stage? = nil, provisioning: ReaderProvisioning? = nil, error: Problem? = nil) {
        self.progress = progress
        self.stage = stage
        self.provisioning = provisioning
        self.error = error
    }

    /// Whether this line ends the stream.
    public var isFinal: Bool { provisioning != nil || error != nil }

    /// The line's bytes: compact JSON in the API's encoding and a newline.
    public func line() throws -> Data {
        var data = try JSONEncoder.gatewayAPI.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Decodes every line of a complete stream body (blank lines are skipped).
    /// - Throws: the decoder's error for a line that is not a progress object.
    public static func lines(in body: Data) throws -> [PrepareProgress] {
        try body.split(separator: UInt8(ascii: "\n")).compactMap { line in
            line.allSatisfy({ $0 == 0x20 || $0 == 0x0D })
                ? nil : try JSONDecoder.gatewayAPI.decode(Self.self, from: line)
        }
    }

    /// A prepare stage.
    public struct Stage: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The stage's name on the wire.
        public var rawValue: String
        /// Creates a stage from its name (a newer server may send names this version does not list).
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The request was accepted.
        public static let started = Stage(rawValue: "started")
        /// The device is registered and has its terminal id.
        public static let deviceRegistered = Stage(rawValue: "deviceRegistered")
        /// The device's PIN encryption key is generated and stored.
        public static let pinKeyStored = Stage(rawValue: "pinKeyStored")
        /// The reader configuration is built.
        public static let configurationBuilt = Stage(rawValue: "configurationBuilt")
        /// The reader session is issued: the line holds the provisioning.
        public static let sessionIssued = Stage(rawValue: "sessionIssued")

        /// The name.
        public var description: String { rawValue }
    }
}
