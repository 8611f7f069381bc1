// DataDirectory.swift: creating the data directory and finding out whether it can be written.

import Foundation

/// The directory that holds `lectern.db` and SQLite's `-wal` and `-shm` files.
///
/// Whether it is writable is found out by trying, not by `access(2)` or mode
/// bits: the daemon may run as root, which ignores permissions, while a
/// read-only mount (`EROFS`) or an immutable file (`chattr +i`, `EPERM`)
/// still refuses root.
struct DataDirectory {
    let path: String

    /// The database file inside the directory.
    var databasePath: String { path + "/lectern.db" }
    /// SQLite's write-ahead log for the database.
    var writeAheadLogPath: String { databasePath + "-wal" }

    /// Creates the directory (and its parents) if it does not exist.
    ///
    /// - Returns: `nil` on success, or why it could not be created.
    func create() -> String? {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true)
            return nil
        } catch {
            return "cannot create the data directory \(path): \(error.localizedDescription)"
        }
    }

    /// Why the store cannot write here, or `nil` if it can: creates and
    /// removes a probe file in the directory (SQLite must create its `-wal`
    /// and `-shm` files there), then opens each existing database file for
    /// writing without changing it.
    func writeRefusal() -> String? {
        let probe = path + "/.lectern-write-probe-\(getpid())"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            return "the data directory \(path) is not writable: \(String(cString: strerror(errno)))"
        }
        close(descriptor)
        unlink(probe)
        for file in [databasePath, writeAheadLogPath, databasePath + "-shm"]
        where FileManager.default.fileExists(atPath: file) {
            let descriptor = open(file, O_RDWR | O_CLOEXEC)
            if descriptor < 0 {
                return "\(file) is not writable: \(String(cString: strerror(errno)))"
            }
            close(descriptor)
        }
        return nil
    }
}

extension DataDirectory {
    /// The lock file, `<directory>/lectern.lock`: whoever holds an `flock`
    /// on it owns the directory; it holds that process's PID, for messages.
    var lockPath: String { path + "/lectern.lock" }

    /// Takes the directory's lock for as long as the returned value lives
    /// (and at most as long as the process: the kernel drops an `flock`
    /// when its holder exits, however it exits, so a crash leaves no stale
    /// lock — only a stale PID in the file, which the next holder rewrites).
    ///
    /// - Parameter canWrite: the directory is writable: the lock file is
    ///   created if missing and given this process's PID. Otherwise an
    ///   existing lock file is opened read-only and locked all the same
    ///   (`flock` does not need write access on Linux), so that a daemon
    ///   serving a read-only copy and one writing to the directory cannot
    ///   both run; if there is none to open, nothing is locked (`nil`).
    /// - Throws: `.locked` naming the holder's PID if another open of the
    ///   lock file (another process, or another store in this one) holds
    ///   it; `.failure` if the file cannot be created or locked.
    /// - Complexity: a few system calls; never waits for the holder.
    func lock(canWrite: Bool) throws(DocumentStoreError) -> DataDirectoryLock? {
        // O_NOFOLLOW: a symbolic link planted at the lock's path must not
        // make the daemon truncate whatever file it points to.
        let descriptor = canWrite
            ? open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            : open(lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            if !canWrite { return nil }
            throw DocumentStoreError(.failure, "cannot create the lock file \(lockPath): \(reason)")
        }
        var status: Int32
        repeat { status = flock(descriptor, LOCK_EX | LOCK_NB) } while status != 0 && errno == EINTR
        guard status == 0 else {
            let failure = errno
            let holder = Self.flockHolder(of: descriptor) ?? Self.pid(in: descriptor)
            close(descriptor)
            guard failure == EWOULDBLOCK else {
                throw DocumentStoreError(
                    .failure, "cannot lock \(lockPath): \(String(cString: strerror(failure)))")
            }
            if holder == getpid() {
                throw DocumentStoreError(
                    .locked, "this process already has the store in \(path) open (it holds \(lockPath))")
            }
            let who = holder.map { "pid \($0)" } ?? "pid unknown"
            throw DocumentStoreError(
                .locked, "another lecternd (\(who)) is using \(path): it holds the lock on \(lockPath)")
        }
        if canWrite {
            // Informational only: the flock, not the file's content, is the lock.
            let line = Array("\(getpid())\n".utf8)
            if ftruncate(descriptor, 0) == 0 {
                _ = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            }
        }
        return DataDirectoryLock(path: lockPath, descriptor: descriptor)
    }

    /// The PID of the process holding an `flock` on the file open as
    /// `descriptor`, from the kernel's own table (`/proc/locks`, Linux), or
    /// nil if it cannot tell. Better than the PID in the file, which a
    /// holder on a read-only directory could not write.
    private static func flockHolder(of descriptor: Int32) -> Int32? {
        var info = stat()
        guard fstat(descriptor, &info) == 0,
            let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return nil }
        // glibc's encoding of dev_t; /proc/locks prints "major:minor:inode", major and minor in hex.
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~UInt64(0xFFF))
        let minor = (device & 0xFF) | ((device >> 12) & ~UInt64(0xFF))
        let file = String(major, radix: 16) + ":" + String(minor, radix: 16) + ":" + String(UInt64(info.st_ino))
        for line in table.split(separator: "\n") {
            // "1: FLOCK  ADVISORY  WRITE 22601 fe:00:16220897 0 EOF"; waiters are "1: -> FLOCK …".
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK" else { continue }
            let id = fields[5].split(separator: ":")
            guard id.count == 3,
                let fileMajor = UInt64(id[0], radix: 16), let fileMinor = UInt64(id[1], radix: 16),
                String(fileMajor, radix: 16) + ":" + String(fileMinor, radix: 16) + ":" + id[2] == file
            else { continue }
            return Int32(fields[4]).flatMap { $0 > 0 ? $0 : nil }
        }
        return nil
    }

    /// The PID written in the lock file, if it holds one.
    private static func pid(in descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }
}

/// A held lock on a data directory (see ``DataDirectory/lock(canWrite:)``):
/// the open lock file, closed — and so unlocked — when this goes away.
/// The descriptor is `O_CLOEXEC`, so a child process never inherits the lock.
final class DataDirectoryLock {
    /// The lock file.
    let path: String
    private let descriptor: Int32

    fileprivate init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
