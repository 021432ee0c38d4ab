import IntentModel

/// A 64-bit digest of the definition files (by path: each path and its bytes), what the compiled
/// cache and the learned models are keyed by. Computed once when a project reads its files.
///
/// Each file's bytes go through the compiled cache's checksum, 32 bytes a step: FNV-1a
/// (`StableHash`) went byte by byte, about 1 M instructions over the bundled apps' 97 KB, and a
/// cold `say` hashed them twice, once per cache. `StableHash` stays what training draws are
/// seeded by: changing it would train every model differently.
public enum DefinitionsDigest {
    public static func of(_ definitions: [(path: String, bytes: [UInt8])]) -> UInt64 {
        var hash = StableHash()
        for file in definitions.sorted(by: { $0.path < $1.path }) {
            hash.add(file.path)
            hash.add(String(PhraseIndex.checksum(file.bytes[...]), radix: 16))
        }
        return hash.value
    }

    /// The digest of the definition files at `paths`, as they are on disk now (an unreadable file
    /// counts as empty).
    public static func of(files paths: some Sequence<String>) -> UInt64 {
        of(
            paths.map { path in
                guard case .bytes(let bytes) = FileBytes.read(path, limit: FileBytes.maximumDefinitionBytes) else {
                    return (path, [])
                }
                return (path, bytes)
            })
    }
}
