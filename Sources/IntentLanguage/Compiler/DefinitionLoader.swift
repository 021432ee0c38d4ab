import Foundation
import IntentModel
import YAML

/// Why definitions could not be read at all (as opposed to diagnostics about their content).
public struct DefinitionLoadError: Error, CustomStringConvertible {
    public var description: String
}

/// Finds and parses the definition files under a directory: one folder per app.
public enum DefinitionLoader {
    /// Every `.yaml`/`.yml` file under `directory`, sorted, as paths relative to the current directory when given so.
    public static func files(in directory: String) throws(DefinitionLoadError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw DefinitionLoadError(description: "no definitions at '\(directory)': the directory does not exist")
        }
        guard isDirectory.boolValue else {
            return [directory]
        }
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            throw DefinitionLoadError(description: "cannot read the directory '\(directory)'")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            if relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
                files.append(directory.hasSuffix("/") ? directory + relative : directory + "/" + relative)
            }
        }
        return files.sorted()
    }

    /// The folder a file's app is named after: the first folder below `root`, or the file itself at the top.
    static func appFolder(of file: String, root: String) -> String {
        let rootParts = root.split(separator: "/")
        let parts = file.split(separator: "/")
        guard parts.count > rootParts.count + 1 else { return file }
        return parts[...(rootParts.count)].joined(separator: "/")
    }
}
