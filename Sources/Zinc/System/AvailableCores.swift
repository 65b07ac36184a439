#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How many threads the parallel steps start when not told otherwise: the cores this
/// process may actually use. `ProcessInfo.activeProcessorCount` counts every online CPU
/// of the machine, whatever the affinity mask (taskset, a container's cpuset) or CPU
/// quota (a container's `--cpus`, a cgroup's `cpu.max`) says. In a two-CPU container on
/// a 64-core build host, an import would start 64 workers, each with its own buffers,
/// to wait their turn for two CPUs.
enum AvailableCores {
    static let count: Int = {
        var cores = ProcessInfo.processInfo.activeProcessorCount
        #if os(Linux)
        if let allowed = KernelCalls.allowedCPUCount() { cores = min(cores, allowed) }
        if let cgroups = readSmallFile("/proc/self/cgroup"),
            let quota = quotaCores(cgroups: cgroups, read: readSmallFile)
        {
            cores = min(cores, quota)
        }
        #endif
        return max(1, cores)
    }()

    /// The tightest CPU quota over the cgroups listed in `cgroups` (the text of
    /// /proc/self/cgroup) and their ancestors, in cores rounded up; nil when none sets
    /// one. Reads cgroup v2's `cpu.max` and v1's `cpu.cfs_quota_us` and
    /// `cpu.cfs_period_us` below /sys/fs/cgroup through `read`.
    static func quotaCores(cgroups: String, read: (String) -> String?) -> Int? {
        var limits = [Int]()
        for line in cgroups.split(separator: "\n") {
            // hierarchy-ID:controllers:path, "0::path" for the v2 hierarchy.
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2].hasPrefix("/") else { continue }
            let isVersion2 = fields[0] == "0" && fields[1].isEmpty
            guard isVersion2 || fields[1].split(separator: ",").contains("cpu") else { continue }
            let mount = isVersion2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/" + fields[1]
            // A container sees its own cgroup at the mount point itself, whatever the
            // path says; a cgroup's limit also binds everything below it.
            var folder = fields[2].hasSuffix("/") ? String(fields[2].dropLast()) : String(fields[2])
            while true {
                let base = mount + folder
                if isVersion2 {
                    if let limit = read(base + "/cpu.max").flatMap({ cores(cpuMax: $0) }) { limits.append(limit) }
                } else if let quota = read(base + "/cpu.cfs_quota_us"), let period = read(base + "/cpu.cfs_period_us"),
                    let limit = cores(quota: quota, period: period)
                {
                    limits.append(limit)
                }
                guard let slash = folder.lastIndex(of: "/") else { break }
                folder = String(folder[..<slash])
            }
        }
        return limits.min()
    }

    /// Cores allowed by a v2 `cpu.max` ("QUOTA PERIOD" in microseconds, or "max PERIOD").
    static func cores(cpuMax: String) -> Int? {
        let fields = cpuMax.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]) else { return nil }
        return roundedUp(quota: quota, period: period)
    }

    /// Cores allowed by v1's quota and period files (a quota of -1 means none).
    static func cores(quota: String, period: String) -> Int? {
        guard let quota = number(quota), let period = number(period) else { return nil }
        return roundedUp(quota: quota, period: period)
    }

    /// The one number of a cgroup file, with white space around it.
    private static func number(_ text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        return fields.count == 1 ? Int(fields[0]) : nil
    }

    private static func roundedUp(quota: Int, period: Int) -> Int? {
        guard quota > 0, period > 0 else { return nil }
        return (quota + period - 1) / period
    }

    /// The text of a /proc or /sys file (these report a size of 0, so it is read to its end).
    private static func readSmallFile(_ path: String) -> String? {
        guard let file = try? PosixFile.open(path), let bytes = try? file.readAll(upTo: 1 << 16) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
