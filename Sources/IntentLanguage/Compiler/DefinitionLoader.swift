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
            throw DefinitionLoadError(
                description:
                    "no definitions at '\(directory)': the directory does not exist (point at one with --intents DIR, or create one here with 'intents init')"
            )
        }
        guard isDirectory.boolValue else {
            return [directory]
        }
        // Walked by hand: symlinked folders (the definitions folder itself, an app folder) are
        // followed, each real folder once, so a link back up cannot loop.
        var visited: Set<FolderIdentity> = []
        var files: [String] = []
        var pending = [directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory]
        guard (try? FileManager.default.contentsOfDirectory(atPath: pending[0])) != nil else {
            throw DefinitionLoadError(description: "cannot read the directory '\(directory)'")
        }
        while let folder = pending.popLast() {
            guard let identity = FolderIdentity(folder), visited.insert(identity).inserted else { continue }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = folder + "/" + name
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    pending.append(path)
                } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                    files.append(path)
                }
            }
        }
        guard !files.isEmpty else {
            throw DefinitionLoadError(
                description:
                    "no apps found in '\(directory)': it holds no .yaml files (one folder per app, e.g. \(directory)/myapp/app.yaml)"
            )
        }
        return files.sorted()
    }

    /// A folder as the file system knows it (device and inode), whatever path reached it.
    private struct FolderIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The folder a file's app is named after: the first folder below `root`, or the file itself at the top.
    static func appFolder(of file: String, root: String) -> String {
        let rootParts = root.split(separator: "/")
        let parts = file.split(separator: "/")
        guard parts.count > rootParts.count + 1 else { return file }
        return parts[...(rootParts.count)].joined(separator: "/")
    }
}
