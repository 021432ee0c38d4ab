extension Compiler {
    /// Deepest nesting of `call:` steps, the same the executor runs (a chain deeper is an error here,
    /// not a stack overflow in the compiler nor a failure at run time).
    static let maximumCallDepth = 16
}
