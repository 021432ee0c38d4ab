import ArgumentParser
import IntentLanguage
import IntentModel

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a JSON Schema of definition files, for editors.",
        discussion: "Save it (intents schema > intents.schema.json) and point your YAML language server at it."
    )

    func run() {
        print(DefinitionSchema.jsonSchema(), terminator: "")
    }
}
