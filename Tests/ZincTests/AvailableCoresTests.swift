import Foundation
import Testing

@testable import Zinc

/// The default number of workers: the CPUs a process may use, not all the machine has.
@Suite struct AvailableCoresTests {
    @Test func readsCgroupQuotasRoundedUpToWholeCores() {
        #expect(AvailableCores.cores(cpuMax: "max 100000\n") == nil)
        #expect(AvailableCores.cores(cpuMax: "150000 100000\n") == 2)
        #expect(AvailableCores.cores(cpuMax: "50000 100000") == 1)
        #expect(AvailableCores.cores(cpuMax: "banana") == nil)
        #expect(AvailableCores.cores(quota: "-1\n", period: "100000\n") == nil)
        #expect(AvailableCores.cores(quota: "400000\n", period: "100000\n") == 4)
    }

    @Test func theTightestQuotaOfACgroupAndItsAncestorsCounts() {
        func quota(_ cgroups: String, _ files: [String: String]) -> Int? {
            AvailableCores.quotaCores(cgroups: cgroups) { files[$0] }
        }
        // A container with its own cgroup namespace sees its cgroup as the root.
        #expect(quota("0::/\n", ["/sys/fs/cgroup/cpu.max": "200000 100000\n"]) == 2)
        // A job limited by its parent's quota, not its own.
        #expect(
            quota(
                "0::/build/job-7\n",
                [
                    "/sys/fs/cgroup/build/cpu.max": "300000 100000\n",
                    "/sys/fs/cgroup/build/job-7/cpu.max": "max 100000\n",
                ]) == 3)
        // cgroup v1, where the path names the host's view but the container's own
        // files are at the mount point.
        #expect(
            quota(
                "12:cpu,cpuacct:/docker/4f2a\n5:memory:/docker/4f2a\n",
                [
                    "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "150000\n",
                    "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
                ]) == 2)
        #expect(
            quota(
                "12:cpu,cpuacct:/\n",
                [
                    "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "-1\n",
                    "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
                ]) == nil)
        #expect(quota("0::/user.slice/session-2.scope\n", [:]) == nil)
        #expect(quota("", [:]) == nil)
    }

    @Test func neverMoreThanTheMachineHasNorFewerThanOne() {
        #expect(AvailableCores.count >= 1)
        #expect(AvailableCores.count <= ProcessInfo.processInfo.activeProcessorCount)
    }

    #if os(Linux)
    /// A thread pinned to one CPU (as `taskset -c 0` pins a process) is allowed one.
    @Test func aThreadPinnedToOneCPUIsAllowedOne() throws {
        typealias SetAffinity = @convention(c) (Int32, Int, UnsafeRawPointer) -> Int32
        let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_setaffinity"))
        let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var counts: (before: Int?, pinned: Int?) = (nil, nil)
        // A thread of its own: the affinity set here is that thread's alone.
        Thread.detachNewThread {
            counts.before = KernelCalls.allowedCPUCount()
            var mask = [UInt64](repeating: 0, count: 16)
            mask[0] = 1
            if mask.withUnsafeBytes({ setAffinity(0, $0.count, $0.baseAddress!) }) == 0 {
                counts.pinned = KernelCalls.allowedCPUCount()
            }
            done.signal()
        }
        done.wait()
        #expect((counts.before ?? 0) >= 1)
        #expect(counts.pinned == 1)
    }
    #endif
}
