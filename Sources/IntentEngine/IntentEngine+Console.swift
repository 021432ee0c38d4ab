public import IntentModel
public import IntentRuntime

/// What the web console (`GET /` of `intents serve`) needs beyond the command line's surfaces: a
/// button of an added (configured) widget, and the tip of the moment.
extension IntentEngine {
    /// Presses button `number` of `widget`, the added one numbered `instance` when given (else the
    /// widget itself); nil when there is no such instance or button now.
    public func press(_ number: Int, on widget: IntentGraph.Widget, instance: Int64?, _ request: EngineRequest)
        throws(EngineError) -> Answer?
    {
        do {
            return try locked {
                let target: WidgetInstance
                if let instance {
                    let qualified = "\(widget.app).\(widget.name)"
                    let stored = try session.store.read { try $0.widgetInstances() }
                    guard let found = stored.first(where: { $0.id == instance && $0.widget == qualified }) else {
                        return nil
                    }
                    target = WidgetInstance(widget, found)
                } else {
                    target = WidgetInstance(widget)
                }
                return try WidgetCenter(graph: graph, store: session.store).press(
                    number, on: target, session: session, options: options(request))
            }
        } catch let error as EngineError {
            throw error
        } catch {
            throw .store("\(error)")
        }
    }

    /// The next Siri tip for when the conversation starts, in `language`, marked shown (each tip is
    /// shown once); nil when none is left or tips are off.
    public func startTip(user: User = .local, language: String?) throws(EngineError) -> IntentGraph.Tip? {
        do {
            return try locked { try TipBoard(graph: graph).take(.start, language: language, store: session.store) }
        } catch {
            throw .store("\(error)")
        }
    }
}
