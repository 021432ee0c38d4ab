import Foundation
import IntentModel

/// Find references and rename, answered from the symbol index of the texts the editor holds.
extension LanguageServer {
    /// Every place the symbol at the cursor is written, its declaration first when asked for.
    func references(_ at: TextDocumentPositionParams, includeDeclaration: Bool) -> [LSPLocation] {
        guard let path = Self.path(of: at.textDocument.uri) else { return [] }
        let index = symbolIndex()
        guard let found = index.occurrence(at: at.position, in: path) else { return [] }
        return index.occurrences(of: found.symbol)
            .filter { includeDeclaration || !$0.isDeclaration }
            .sorted { ($0.isDeclaration ? 0 : 1, $0.file, $0.start) < ($1.isDeclaration ? 0 : 1, $1.file, $1.start) }
            .compactMap(index.location(of:))
    }

    /// The name at the cursor when it can be renamed, with its range; nil otherwise.
    func prepareRename(_ at: TextDocumentPositionParams) -> (range: LSPRange, placeholder: String)? {
        guard let path = Self.path(of: at.textDocument.uri) else { return nil }
        let index = symbolIndex()
        guard let found = index.occurrence(at: at.position, in: path), let source = index.sources[path] else {
            return nil
        }
        return (source.range(found.start, found.end), found.symbol.name)
    }

    /// The edits that rename the symbol at the cursor everywhere it is written; a `ResponseError`
    /// when there is nothing to rename there, or the new name is no identifier or is taken.
    func rename(_ at: TextDocumentPositionParams, to newName: String) throws -> CodeAction.WorkspaceEdit {
        guard let path = Self.path(of: at.textDocument.uri) else { throw Self.invalid("textDocument") }
        let index = symbolIndex()
        guard let found = index.occurrence(at: at.position, in: path) else {
            throw ResponseError(code: ResponseError.requestFailed, message: "nothing to rename here")
        }
        let symbol = found.symbol
        if let problem = Self.problem(renaming: symbol, to: newName, in: index) {
            throw ResponseError(code: ResponseError.requestFailed, message: problem)
        }
        var changes: [String: [TextEdit]] = [:]
        for occurrence in index.occurrences(of: symbol) {
            guard let location = index.location(of: occurrence) else { continue }
            changes[location.uri, default: []].append(TextEdit(range: location.range, newText: newName))
        }
        return CodeAction.WorkspaceEdit(changes: changes)
    }

    /// Why `symbol` cannot be called `newName`, or nil when it can.
    static func problem(renaming symbol: DefinitionSymbol, to newName: String, in index: SymbolIndex) -> String? {
        guard let first = newName.unicodeScalars.first, first.startsIdentifier,
            newName.unicodeScalars.allSatisfy(\.continuesIdentifier)
        else {
            return "'\(newName)' is not a name: a letter or '_', then letters, digits or '_'"
        }
        if newName == symbol.name { return nil }
        switch symbol {
        case .parameter(let app, let owner, _):
            let what = owner.hasPrefix("widget:") ? "the widget '\(owner.dropFirst(7))'" : "'\(owner)'"
            if newName == "app" { return "'app' names the app in phrases; a parameter cannot be called so" }
            if index.parameters[app]?[owner]?.contains(newName) == true {
                return "\(what) already has a parameter '\(newName)'"
            }
        case .intent(let app, _):
            if index.intents[app]?.contains(newName) == true { return "the app already has an intent '\(newName)'" }
        case .type(let app, _):
            if ValueType.builtins[newName] != nil { return "'\(newName)' is a built-in type" }
            if index.types[app]?.contains(newName) == true { return "the app already has a type '\(newName)'" }
        case .rule(let app, _):
            if index.rules[app]?.contains(newName) == true { return "the app already has a rule '\(newName)'" }
        }
        return nil
    }
}
