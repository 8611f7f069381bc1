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
