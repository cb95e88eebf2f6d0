extension CardCryptograms: CustomReflectable {
    /// The cryptogram version only: `dump` and debuggers never show the card's keys.
    public var customMirror: Mirror { Mirror(self, children: ["version": version], displayStyle: .struct) }
}
