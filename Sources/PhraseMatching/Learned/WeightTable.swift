import Foundation

/// Zeroed floats for training's weight table, mapped from the kernel in huge pages where it has them
/// (Linux, `MADV_HUGEPAGE`): a step of the sampled fit reads and writes about a thousand scattered
/// weights of a table of hundreds of megabytes, and with 4 KiB pages most of them also miss the
/// address translation cache (BENCHMARKS.md, train13). The memory is the same zeroed memory either
/// way: what is computed does not depend on how it is mapped. Owns its memory; freed on `deinit`.
final class WeightTable {
    let floats: UnsafeMutableBufferPointer<Float>
    private let mapped: Int

    init(count: Int) {
        let bytes = max(1, count) * MemoryLayout<Float>.stride
        #if os(Linux)
            let huge = 2 << 20
            let length = (bytes + huge - 1) / huge * huge
            // Anonymous memory is zeroed, and a page is made only when first touched.
            if let base = mmap(nil, length + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                base != MAP_FAILED
            {
                // Huge pages need 2 MiB-aligned ranges: the mapping is one page longer, the start aligned.
                let address = Int(bitPattern: base)
                let aligned = (address + huge - 1) / huge * huge
                if aligned > address { munmap(base, aligned - address) }
                let tail = address + length + huge - (aligned + length)
                if tail > 0 { munmap(UnsafeMutableRawPointer(bitPattern: aligned + length), tail) }
                let start = UnsafeMutableRawPointer(bitPattern: aligned)!
                _ = madvise(start, length, MADV_HUGEPAGE)
                floats = UnsafeMutableBufferPointer(
                    start: start.bindMemory(to: Float.self, capacity: count), count: count)
                mapped = length
                return
            }
        #endif
        floats = .allocate(capacity: count)
        floats.initialize(repeating: 0)
        mapped = 0
    }

    deinit {
        #if os(Linux)
            if mapped > 0 {
                munmap(UnsafeMutableRawPointer(floats.baseAddress!), mapped)
                return
            }
        #endif
        floats.deallocate()
    }
}
