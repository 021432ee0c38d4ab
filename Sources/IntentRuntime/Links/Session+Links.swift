extension Session {
    /// The deep-link router over the graph, built on first use and kept for the session.
    public var linkRouter: LinkRouter { once(LinkRouter.init(graph:)) }
}
