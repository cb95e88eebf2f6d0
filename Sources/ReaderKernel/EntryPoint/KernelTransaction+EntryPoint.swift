import EMV

// The entry point (EMV Contactless Book B): pre-processing, SELECT PPSE, the candidate list, final selection and
// Select Next.
extension KernelTransaction {
    /// Book B 3.1.1: compares the amount with each supported kernel's limits in the transaction currency.
    mutating func preProcess() {
        var kernelIDs: [UInt8] = []
        for application in configuration.applications where !kernelIDs.contains(application.kernelID) {
            kernelIDs.append(application.kernelID)
        }
        let results = kernelIDs.map { id in
            PreProcessingIndicators(
                kernel: ReaderConfiguration.kernel(id: id), amount: request.amount,
                limits: configuration.limits(kernelID: id, currency: request.currency))
        }
        for result in results { indicators[result.kernel.id] = result }
        events.append(.limitsChecked(amount: request.amount, results))
    }

    /// Book B 3.3.2: reads the PPSE directory and builds the candidate list.
    mutating func receiveDirectory(_ response: ResponseAPDU) -> KernelAction {
        guard response.statusWord == .success,
            let nodes = try? TLV.parse(response.data, rules: .lenient),
            let fci = nodes.first(.fileControlInformationTemplate)
        else {
            return finish(.endApplication, .proximityEnvironmentUnavailable(response.statusWord))
        }
        var excludedByLimit = false
        var ranked: [(candidate: Candidate, order: Int)] = []
        for (order, entry) in fci.children.all(.applicationTemplate).enumerated() {
            guard let adfName = entry.first(.applicationIdentifier).map({ Array($0.value) }),
                (5...16).contains(adfName.count)
            else { continue }
            let requestedKernel = Self.requestedKernelID(entry.first(.kernelIdentifier)?.value, adfName: adfName)
            guard
                let application = configuration.applications.first(where: {
                    $0.matches(adfName: adfName) && $0.kernelID == requestedKernel
                })
            else { continue }
            if indicators[application.kernelID]?.contactlessApplicationNotAllowed == true {
                excludedByLimit = true
                continue
            }
            let priority = entry.first(.applicationPriorityIndicator)?.value.first.map { $0 & 0x0F }
            let label = entry.first(.applicationLabel).map { String(decoding: $0.value, as: UTF8.self) }
            let candidate = Candidate(
                adfName: adfName, label: label, priority: priority == 0 ? nil : priority, kernel: application.kernel,
                application: application)
            ranked.append((candidate, order))
        }
        candidates = ranked.sorted { lhs, rhs in
            let left = rankKey(lhs.candidate, order: lhs.order)
            let right = rankKey(rhs.candidate, order: rhs.order)
            return left.lexicographicallyPrecedes(right)
        }.map(\.candidate)
        events.append(.candidatesBuilt(candidates))
        guard !candidates.isEmpty else {
            return excludedByLimit
                ? finish(.tryAnotherInterface, .amountOverContactlessLimit)
                : finish(.endApplication, .noMutuallySupportedApplication)
        }
        return selectFirstCandidate()
    }

    /// Preferred AIDs first (in the request's order), then the card's priority (1 highest, none last), then the
    /// directory's order.
    private func rankKey(_ candidate: Candidate, order: Int) -> [Int] {
        let preferred =
            request.preferredAIDs.firstIndex { candidate.adfName.starts(with: $0) } ?? request.preferredAIDs.count
        return [preferred, Int(candidate.priority ?? 16), order]
    }

    /// Book B 3.3.2.5: the kernel a directory entry asks for (Kernel Identifier 9F2A), or the default for its RID.
    static func requestedKernelID(_ kernelIdentifier: ArraySlice<UInt8>?, adfName: [UInt8]) -> UInt8 {
        if let first = kernelIdentifier?.first, first & 0x3F != 0 {
            return first & 0x3F
        }
        switch adfName.prefix(5) {
        case [0xA0, 0x00, 0x00, 0x00, 0x04]: return 2
        case [0xA0, 0x00, 0x00, 0x00, 0x03]: return 3
        case [0xA0, 0x00, 0x00, 0x00, 0x25]: return 4
        case [0xA0, 0x00, 0x00, 0x00, 0x65]: return 5
        case [0xA0, 0x00, 0x00, 0x01, 0x52]: return 6
        case [0xA0, 0x00, 0x00, 0x03, 0x33]: return 7
        default: return 0
        }
    }

    /// Book B 3.3.3: SELECT of the first candidate, with per-candidate state reset.
    mutating func selectFirstCandidate() -> KernelAction {
        guard let candidate = candidates.first else {
            return finish(.endApplication, lastDropReason ?? .candidatesExhausted)
        }
        card = CardData()
        pendingRecords = []
        terminalTransactionQualifiers = []
        terminalVerificationResults = []
        terminalCapabilities = configuration.terminalCapabilities
        cardholderVerification = .notApplicable
        cvmResults = nil
        pdolData = []
        cdol1Data = []
        cdaRequested = false
        magStripeUnpredictableNumber = []
        step = .selectingApplication
        guard let command = try? CommandAPDU.select(name: candidate.adfName) else {
            return selectNext(.invalidCardData("ADF name"))
        }
        return send(command)
    }

    /// Book B 3.5 (outcome Select Next): drops the current candidate and selects the next one.
    mutating func selectNext(_ reason: OutcomeReason) -> KernelAction {
        if let dropped = candidates.first {
            events.append(.selectNext(adfName: dropped.adfName, reason: reason))
            candidates.removeFirst()
        }
        lastDropReason = reason
        return selectFirstCandidate()
    }

    /// The FCI of the selected application: keeps it and activates the candidate's kernel.
    mutating func receiveFileControlInformation(_ response: ResponseAPDU) -> KernelAction {
        guard response.statusWord == .success else {
            return selectNext(.cardStatus(command: "SELECT", response.statusWord))
        }
        guard let nodes = try? TLV.parse(response.data, rules: .lenient),
            let fci = nodes.first(.fileControlInformationTemplate)
        else {
            return selectNext(.invalidCardData("the FCI is not a '6F' template"))
        }
        guard let candidate = candidates.first else { return finish(.endApplication, .candidatesExhausted) }
        card.store(fci.children)
        events.append(.applicationSelected(candidate))
        switch candidate.kernel {
        case .c3: return startKernel3()
        case .c2: return startKernel2()
        default: return selectNext(.unsupportedCard("no kernel \(candidate.kernel.id) in this reader"))
        }
    }
}
