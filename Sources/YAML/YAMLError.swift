/// Why a YAML file could not be read, with where it went wrong.
public struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as libyaml or this layer puts it.
    public var message: String
    public var mark: Mark
    /// libyaml's "while parsing …" context, at its own mark.
    public var context: (message: String, mark: Mark)?

    public init(message: String, mark: Mark, context: (message: String, mark: Mark)? = nil) {
        self.message = message
        self.mark = mark
        self.context = context
    }

    public static func == (lhs: YAMLError, rhs: YAMLError) -> Bool {
        lhs.message == rhs.message && lhs.mark == rhs.mark
            && lhs.context?.message == rhs.context?.message && lhs.context?.mark == rhs.context?.mark
    }

    public var description: String { "\(mark): error: \(message)" }
}
