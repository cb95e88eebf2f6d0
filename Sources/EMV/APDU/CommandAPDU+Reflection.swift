extension CommandAPDU: CustomReflectable {
    /// Header and lengths only, as ``description`` shows them: `dump` and debuggers must not show the data field,
    /// which carries PIN blocks (VERIFY) and card data.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["cla": cla, "ins": ins, "p1": p1, "p2": p2, "dataCount": data.count, "ne": ne],
            displayStyle: .struct
        )
    }
}
