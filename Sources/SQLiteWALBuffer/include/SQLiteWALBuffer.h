#ifndef SQLITE_WAL_BUFFER_H
#define SQLITE_WAL_BUFFER_H

/// The name of the VFS that `sqlite_wal_buffer_register` adds: SQLite's default VFS, except that a write-ahead
/// log's frames are written to the file in one write per commit instead of two writes per page.
#define SQLITE_WAL_BUFFER_VFS "tap-wal-buffer"

/// Registers the VFS (once; later calls do nothing). Returns an SQLite result code.
int sqlite_wal_buffer_register(void);

/// How many writes the VFS has made to write-ahead logs so far, and how many frames it wrote (for tests).
long long sqlite_wal_buffer_writes(void);
long long sqlite_wal_buffer_frames(void);

#endif
