import Foundation
import IntentLanguage
import IntentModel
import ModelStore
import TestSupport
import Testing

@testable import IntentRuntime

/// What keeps a big store quick, checked by what SQLite plans to read rather than by time.
@Suite("Big stores: queries the definitions run are served by indexes", .tags(.slow), .skippedWhenFast)
struct BigStoreTests {
    let scratch = Scratch()

    @Test("Every bundled widget's filtered or sorted query reads an index, never every task, and sorts nothing")
    func widgetQueriesUseIndexes() throws {
        let conversation = try scratch.conversation()
        conversation.say(
            "add buy milk to my tasks", "add an urgent task pay the rent", "remind me to pay taxes today at 10:30")
        let store = conversation.session.store
        let center = WidgetCenter(graph: Bundled.graph, store: store)
        let plans = try store.queryPlans { _ = try center.stack() }
        #expect(!plans.isEmpty)
        // Tasks are what a big store holds many of (focus blocks are few, and one widget's filter
        // does arithmetic on their columns, which is read here rather than in SQL).
        let onTasks = plans.filter { $0.sql.contains("FROM \"FocusBlox.Task\"") }
        #expect(onTasks.count >= 4)
        for (sql, plan) in onTasks where sql.contains(" WHERE ") || sql.contains(" ORDER BY ") {
            #expect(!plan.contains("TEMP B-TREE"), "sorts: \(sql)\n  \(plan)")
            let scans = plan.split(separator: ";").filter {
                $0.contains("SCAN") && !$0.contains("INDEX") && !$0.contains("subquery")
            }
            #expect(scans.isEmpty, "reads every record: \(sql)\n  \(plan)")
        }
    }
}
