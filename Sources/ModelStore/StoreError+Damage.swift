import GRDB

extension StoreError {
    /// What went wrong with the store at `path`, in words: SQLite's own text ("SQLite error 11:
    /// database disk image is malformed - while executing …") never reaches a person raw.
    public static func describing(_ error: any Error, store path: String) -> String {
        if let error = error as? StoreError { return error.description }
        if error is DatabaseError { return "cannot use the store \(path): \(Store.reason(error))" }
        return "\(error)"
    }
}

extension StoreTransaction {
    /// `StoreError.describing` for this transaction's store.
    public func describing(_ error: any Error) -> String {
        StoreError.describing(error, store: store.path)
    }
}
