/// A `tap emulate` failure after the arguments were accepted (a profile that cannot be read): its message, exit 1.
struct EmulateError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
