import ArgumentParser
import IntentLanguage
import IntentModel
import IntentProject
import IntentRendering

struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph", abstract: "Print the compiled intent graph.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, dot, json
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: "text, dot (Graphviz) or json.")
    var format: Format = .text

    func run() throws {
        let (_, graph) = try global.loadGraph()
        switch format {
        case .text: print(graph.renderText(), terminator: "")
        case .dot: print(graph.renderDOT(), terminator: "")
        case .json: print(graph.renderJSON(), terminator: "")
        }
    }
}
