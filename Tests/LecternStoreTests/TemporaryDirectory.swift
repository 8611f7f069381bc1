// TemporaryDirectory.swift: scratch directories, and real read-only or full
// file systems for the fault tests.

import Foundation

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "lectern-store-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func appending(_ name: String) -> String { path + "/" + name }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Runs a command, returning whether it exited with status 0.
@discardableResult
func run(_ executable: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}

/// Real read-only and full conditions that hold even for root, who ignores
/// permission bits (CI runs tests as root).
enum FileSystemConditions {
    /// Whether `chattr +i` works here: an immutable file or directory refuses
    /// writes with `EPERM` even to root. Needs CAP_LINUX_IMMUTABLE and a file
    /// system with the flag (ext4, xfs, btrfs; not tmpfs or overlayfs).
    static let canMakeImmutable: Bool = {
        guard let directory = try? TemporaryDirectory() else { return false }
        defer { directory.remove() }
        let file = directory.appending("probe")
        guard FileManager.default.createFile(atPath: file, contents: Data()),
            run("/usr/bin/chattr", ["+i", file])
        else { return false }
        let refused = open(file, O_WRONLY) < 0
        run("/usr/bin/chattr", ["-i", file])
        return refused
    }()

    /// Whether this process may mount a small tmpfs (root with CAP_SYS_ADMIN,
    /// not in an unprivileged container): a tmpfs with `size=` runs out of
    /// space with a real `ENOSPC`.
    static let canMountTmpfs: Bool = {
        guard let directory = try? TemporaryDirectory() else { return false }
        defer { directory.remove() }
        guard run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory.path])
        else { return false }
        return run("/usr/bin/umount", [directory.path])
    }()

    /// Sets or clears the immutable flag on each path.
    static func setImmutable(_ immutable: Bool, _ paths: [String]) {
        for path in paths { run("/usr/bin/chattr", [immutable ? "+i" : "-i", path]) }
    }
}
