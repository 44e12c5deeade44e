#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the whole process has used so far: CPU time (client, embedded server, and the
/// kernel's work on their behalf) and context switches (threads that slept or were preempted).
///
/// The difference between two snapshots is what a batch of operations cost the machine. The
/// host's noise moves it less than wall time, and context switches show the sleeps and
/// wake-ups between event-loop threads and task threads that a request causes.
struct ProcessUsage {
    var cpuSeconds: Double
    var contextSwitches: Int

    /// The process's usage now.
    static func now() -> ProcessUsage {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ProcessUsage(
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            contextSwitches: Int(usage.ru_nvcsw) + Int(usage.ru_nivcsw)
        )
    }

    /// The usage between `earlier` and `self`.
    func since(_ earlier: ProcessUsage) -> ProcessUsage {
        ProcessUsage(cpuSeconds: cpuSeconds - earlier.cpuSeconds, contextSwitches: contextSwitches - earlier.contextSwitches)
    }
}
