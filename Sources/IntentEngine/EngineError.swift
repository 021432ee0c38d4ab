public import IntentProject

/// Why the engine could not start, or could not do what was asked.
public enum EngineError: Error, CustomStringConvertible, Sendable {
    /// The definitions cannot be read at all (no folder, unreadable file).
    case unreadable(String)
    /// The definitions have errors: the project holds every diagnostic and the sources to print them with.
    case invalid(Project)
    /// The store cannot be used (not SQLite, read-only, a refused migration, a failed write).
    case store(String)
    /// A request the engine refuses (an unknown name, a value out of range).
    case refused(String)

    public var description: String {
        switch self {
        case .unreadable(let message): message
        case .invalid(let project):
            "the definitions have \(project.diagnostics.filter { $0.severity == .error }.count) error(s)"
        case .store(let message): message
        case .refused(let message): message
        }
    }
}
