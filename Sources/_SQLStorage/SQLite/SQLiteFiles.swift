import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of a SQLite database — the database, its `-wal` and its `-shm` — readable and writable by the owner
/// only: they hold the payments and, encrypted, card data and keys.
///
/// SQLite creates the `-wal` and `-shm` files with the database file's mode, so a database file created here with
/// mode 0600 before SQLite opens it keeps all three private whatever the process's umask; files an earlier version
/// left wider are narrowed.
enum SQLiteFiles {
    /// Creates the database file with mode 0600 if it does not exist, and takes group and other access away from
    /// the three files that do.
    /// - Throws: ``StorageError/Code/connectionFailed`` when the file cannot be created or its mode changed.
    static func makePrivate(databasePath: String) throws(StorageError) {
        let descriptor = open(databasePath, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else {
            throw StorageError(.connectionFailed, "cannot create the SQLite database \(databasePath)")
        }
        close(descriptor)
        for path in [databasePath, databasePath + "-wal", databasePath + "-shm"] {
            guard
                let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber,
                mode.intValue & 0o077 != 0
            else { continue }
            do {
                try FileManager.default.setAttributes(
                    [.posixPermissions: mode.intValue & 0o700], ofItemAtPath: path)
            } catch {
                throw StorageError(.connectionFailed, "cannot make \(path) private (chmod 600)")
            }
        }
    }
}
