import Foundation

/// CPU seconds the whole process has used (`CLOCK_PROCESS_CPUTIME_ID`), every thread's: what a
/// benchmark quotes beside wall time when waiting and working must be told apart.
public func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}
