import ArgumentParser
import IntentLanguage
import IntentModel

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print a JSON Schema of definition or shortcut files.",
        discussion: """
            Save it (intents schema > intents.schema.json, intents schema --shortcuts > shortcuts.schema.json) \
            and point your YAML language server at it.
            """
    )

    @Flag(help: "Describe shortcut files (Shortcuts/*.yaml) instead of definition files.")
    var shortcuts = false

    func run() {
        print(DefinitionSchema.jsonSchema(for: shortcuts ? .shortcuts : .definitions), terminator: "")
    }
}
