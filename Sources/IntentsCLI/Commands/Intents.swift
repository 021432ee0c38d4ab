import ArgumentParser

@main
struct Intents: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intents",
        abstract: "Apple-style App Intents, declared in YAML, made real at a prompt.",
        discussion:
            "With no subcommand, intents starts the conversation at a prompt (repl) over the definitions in ./Intents (one folder per app) and the store ./.intents/store.sqlite. Exit status: 0 done, 1 not done, 2 a wrong command line (intents help exit-codes).",
        version: Intents.version,
        subcommands: [
            Repl.self, Say.self, Check.self, Test.self, Explain.self, Graph.self, Describe.self, Schema.self, Run.self,
            Batch.self, StoreCommand.self, Undo.self,
            Search.self, Suggest.self, Tips.self,
            Open.self, Link.self, Share.self, Continue.self,
            Widgets.self, WidgetGroup.self, Controls.self, ControlCommand.self, Activities.self,
            Serve.self, Users.self,
            Init.self, LanguageServerCommand.self, ImportCommand.self,
        ],
        defaultSubcommand: Repl.self
    )

    /// What `intents --version` prints (argument-parser's `version`, answered before it starts).
    static let version = "0.1.0"
}
