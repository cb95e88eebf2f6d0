extension ICCMasterKeys: CustomReflectable {
    /// No children: `dump` and debuggers show the type, never the keys.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
