public import IntentModel

/// Which apps take a set of shared items, and why the others do not: an app takes the set when one
/// of its `share:` routes takes every item's kind, the count and every file's size.
public struct ShareRouter: Sendable {
    public let graph: IntentGraph

    public init(graph: IntentGraph) {
        self.graph = graph
    }

    /// An app that takes the whole set, by this route.
    public struct Offer: Sendable {
        public let app: String
        public let route: IntentGraph.ShareRoute
        public let intent: IntentGraph.Intent

        /// `sideBar — Save Website`: a choice as the share sheet shows it.
        public var label: String { "\(app) — \(intent.title)" }
    }

    /// An app that does not take the set, and why ("sideBar accepts at most 1 web page; you shared 3").
    public struct Rejection: Error, Sendable, Hashable {
        public let app: String
        public let reason: String
    }

    /// The offers (apps in name order) and the rejections of the apps that accept shares at all;
    /// with `app`, that app alone (an app that takes no shares is a rejection too).
    public func route(_ items: [ShareItem], to app: String? = nil) -> (offers: [Offer], rejections: [Rejection]) {
        var offers: [Offer] = []
        var rejections: [Rejection] = []
        let apps = app.map { name in graph.apps.filter { $0.name.lowercased() == name.lowercased() } } ?? graph.apps
        for app in apps {
            guard !app.shareRoutes.isEmpty else {
                if apps.count == 1 {
                    rejections.append(Rejection(app: app.name, reason: "\(app.name) accepts no shared content"))
                }
                continue
            }
            switch verdict(items, app) {
            case .success(let offer): offers.append(offer)
            case .failure(let rejection): rejections.append(rejection)
            }
        }
        return (offers, rejections)
    }

    private func verdict(_ items: [ShareItem], _ app: IntentGraph.App) -> Result<Offer, Rejection> {
        func reject(_ reason: String) -> Result<Offer, Rejection> { .failure(Rejection(app: app.name, reason: reason)) }
        let kinds = Self.kinds(of: items)
        // Routes that take every kind shared; the first that also takes the count and sizes wins.
        let fitting = app.shareRoutes.filter { route in kinds.allSatisfy(route.takes) }
        for route in fitting {
            if let max = route.maximumCount, items.count > max { continue }
            if let limit = route.maximumSize, items.contains(where: { ($0.size ?? 0) > limit }) { continue }
            guard let intent = graph.intent(route.intent) else { continue }
            return .success(Offer(app: app.name, route: route, intent: intent))
        }
        if let route = fitting.first {
            if let max = route.maximumCount, items.count > max {
                let noun = kinds.count == 1 ? kinds[0] : nil
                let allowed = noun.map { $0.counted(max) } ?? "\(max) item\(max == 1 ? "" : "s")"
                return reject("\(app.name) accepts at most \(allowed); you shared \(items.count)")
            }
            if let limit = route.maximumSize, let big = items.first(where: { ($0.size ?? 0) > limit }) {
                return reject(
                    "\(app.name) accepts files up to \(ShareItem.size(limit)); \(big.name ?? big.text) is \(ShareItem.size(big.size ?? 0))"
                )
            }
        }
        let untaken = kinds.filter { kind in !app.shareRoutes.contains { $0.takes(kind) } }
        if !untaken.isEmpty {
            let nouns = untaken.map {
                $0.counted(2).split(separator: " ", maxSplits: 1).last.map(String.init) ?? $0.noun
            }
            return reject("\(app.name) does not accept \(Self.list(nouns))")
        }
        let nouns = kinds.map { $0.counted(2).split(separator: " ", maxSplits: 1).last.map(String.init) ?? $0.noun }
        return reject("\(app.name) does not accept \(Self.list(nouns)) together; share them one kind at a time")
    }

    /// The kinds among the items, in first-seen order.
    static func kinds(of items: [ShareItem]) -> [ShareItem.Content] {
        var kinds: [ShareItem.Content] = []
        for item in items where !kinds.contains(item.kind) { kinds.append(item.kind) }
        return kinds
    }

    private static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + words.last!
    }
}
