import Foundation

/// A new process timed from posix_spawn to its exit (Foundation's Process notices an exit only on a
/// 0.1 s poll here): wall time in ms, peak resident memory in MB, exit status, and the CPU time it
/// used (user and system, ms): on a shared machine the wall clock is mostly the time other processes
/// had the cores. Standard input and output are /dev/null, and standard error too unless
/// `keepErrors`; `environment` nil passes ours.
func spawnTimed(
    _ binary: String, _ arguments: [String], environment: [String]? = nil, keepErrors: Bool = true
) throws -> (ms: Double, peakMB: Double, status: Int32, cpuMS: Double) {
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup($0) } + [nil] }
    defer {
        argv.forEach { free($0) }
        envp?.forEach { free($0) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    if !keepErrors { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned =
        envp.map { posix_spawn(&pid, binary, &actions, nil, argv, $0) }
        ?? posix_spawn(&pid, binary, &actions, nil, argv, environ)
    guard spawned == 0 else { throw CocoaError(.executableLoad) }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
    return (wall, Double(usage.ru_maxrss) / 1024, status, ms(usage.ru_utime) + ms(usage.ru_stime))
}
