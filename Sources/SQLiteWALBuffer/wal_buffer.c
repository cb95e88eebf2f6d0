// SQLite writes each write-ahead-log frame as two writes (its 24-byte header, then the page), so a commit of n
// pages costs 2n system calls. This VFS wraps the default one and, for WAL files only, collects a transaction's
// frames and writes them in one call when the commit frame (the one whose header carries the database size) is
// written: before SQLite publishes the frames in the WAL index, so no reader can look for a frame not yet in the
// file. Everything else is passed through; any other access by the connection writes what is pending first.
//
// Only the connection's own thread touches the pending frames. A sync may come from another thread
// (SQLiteWALSync) and is passed straight through: it must cover committed frames only, and those are never
// pending.

#include "SQLiteWALBuffer.h"
#include "sqlite_nio_sqlite3.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/// WAL files start with a 32-byte header; each frame is a 24-byte header and a page.
enum { walHeaderSize = 32, frameHeaderSize = 24, writePiece = 64 * 1024, flushAbove = 1 << 20 };

typedef struct BufferedFile {
    sqlite3_file base;
    sqlite3_file *real;
    unsigned char *pending;
    sqlite3_int64 pendingStart;
    int pendingLength;
    int pendingCapacity;
    /// The last frame header collected belongs to a commit frame: its page ends the transaction.
    int commitFrame;
} BufferedFile;

static sqlite3_vfs *defaultVFS;
static sqlite3_vfs bufferedVFS;
static sqlite3_io_methods bufferedMethods;
static atomic_llong writes;
static atomic_llong frames;

static int writePending(BufferedFile *file) {
    int result = SQLITE_OK;
    // In pieces of at most 64 KiB: the unix VFS masks a write's length to 17 bits (a write of 128 KiB or more
    // comes back short and reports SQLITE_FULL).
    for (int done = 0; done < file->pendingLength && result == SQLITE_OK; done += writePiece) {
        int amount = file->pendingLength - done < writePiece ? file->pendingLength - done : writePiece;
        result = file->real->pMethods->xWrite(file->real, file->pending + done, amount, file->pendingStart + done);
        atomic_fetch_add(&writes, 1);
    }
    file->pendingLength = 0;
    return result;
}

static int collect(BufferedFile *file, const void *data, int amount, sqlite3_int64 offset) {
    if (file->pendingLength + amount > file->pendingCapacity) {
        int capacity = file->pendingCapacity ? file->pendingCapacity : 64 * 1024;
        while (capacity < file->pendingLength + amount) capacity *= 2;
        unsigned char *grown = realloc(file->pending, (size_t)capacity);
        if (grown == NULL) return SQLITE_IOERR_NOMEM;
        file->pending = grown;
        file->pendingCapacity = capacity;
    }
    if (file->pendingLength == 0) file->pendingStart = offset;
    memcpy(file->pending + file->pendingLength, data, (size_t)amount);
    file->pendingLength += amount;
    return SQLITE_OK;
}

static int bufferedWrite(sqlite3_file *base, const void *data, int amount, sqlite3_int64 offset) {
    BufferedFile *file = (BufferedFile *)base;
    int appends = file->pendingLength > 0 && offset == file->pendingStart + file->pendingLength;
    if (file->pendingLength > 0 && !appends) {
        int result = writePending(file);
        if (result != SQLITE_OK) return result;
    }
    if (amount == frameHeaderSize && offset >= walHeaderSize && (file->pendingLength == 0 || appends)) {
        const unsigned char *header = data;
        file->commitFrame = (header[4] | header[5] | header[6] | header[7]) != 0;
        return collect(file, data, amount, offset);
    }
    if (appends) {
        // The page of the frame whose header was just collected.
        int result = collect(file, data, amount, offset);
        if (result != SQLITE_OK) return result;
        atomic_fetch_add(&frames, 1);
        if (file->commitFrame || file->pendingLength >= flushAbove) return writePending(file);
        return SQLITE_OK;
    }
    atomic_fetch_add(&writes, 1);
    return file->real->pMethods->xWrite(file->real, data, amount, offset);
}

static int bufferedClose(sqlite3_file *base) {
    BufferedFile *file = (BufferedFile *)base;
    int result = writePending(file);
    int closed = file->real->pMethods->xClose(file->real);
    free(file->pending);
    file->pending = NULL;
    file->pendingCapacity = 0;
    return result != SQLITE_OK ? result : closed;
}

static int bufferedRead(sqlite3_file *base, void *data, int amount, sqlite3_int64 offset) {
    BufferedFile *file = (BufferedFile *)base;
    int result = writePending(file);
    if (result != SQLITE_OK) return result;
    return file->real->pMethods->xRead(file->real, data, amount, offset);
}

static int bufferedTruncate(sqlite3_file *base, sqlite3_int64 size) {
    BufferedFile *file = (BufferedFile *)base;
    int result = writePending(file);
    if (result != SQLITE_OK) return result;
    return file->real->pMethods->xTruncate(file->real, size);
}

/// Passed through without touching pending frames (see the top of this file).
static int bufferedSync(sqlite3_file *base, int flags) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xSync(file->real, flags);
}

static int bufferedFileSize(sqlite3_file *base, sqlite3_int64 *size) {
    BufferedFile *file = (BufferedFile *)base;
    int result = writePending(file);
    if (result != SQLITE_OK) return result;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int bufferedLock(sqlite3_file *base, int lock) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xLock(file->real, lock);
}

static int bufferedUnlock(sqlite3_file *base, int lock) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xUnlock(file->real, lock);
}

static int bufferedCheckReservedLock(sqlite3_file *base, int *reserved) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xCheckReservedLock(file->real, reserved);
}

static int bufferedFileControl(sqlite3_file *base, int operation, void *argument) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xFileControl(file->real, operation, argument);
}

static int bufferedSectorSize(sqlite3_file *base) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xSectorSize(file->real);
}

static int bufferedDeviceCharacteristics(sqlite3_file *base) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int bufferedShmMap(sqlite3_file *base, int page, int size, int extend, void volatile **memory) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xShmMap(file->real, page, size, extend, memory);
}

static int bufferedShmLock(sqlite3_file *base, int offset, int count, int flags) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void bufferedShmBarrier(sqlite3_file *base) {
    BufferedFile *file = (BufferedFile *)base;
    file->real->pMethods->xShmBarrier(file->real);
}

static int bufferedShmUnmap(sqlite3_file *base, int delete) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xShmUnmap(file->real, delete);
}

static int bufferedFetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **pointer) {
    BufferedFile *file = (BufferedFile *)base;
    int result = writePending(file);
    if (result != SQLITE_OK) return result;
    return file->real->pMethods->xFetch(file->real, offset, amount, pointer);
}

static int bufferedUnfetch(sqlite3_file *base, sqlite3_int64 offset, void *pointer) {
    BufferedFile *file = (BufferedFile *)base;
    return file->real->pMethods->xUnfetch(file->real, offset, pointer);
}

static int bufferedOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags, int *outFlags) {
    (void)vfs;
    if (!(flags & SQLITE_OPEN_WAL)) {
        // Not a WAL: the default VFS's file as it is (this file's memory is large enough for it).
        return defaultVFS->xOpen(defaultVFS, name, base, flags, outFlags);
    }
    BufferedFile *file = (BufferedFile *)base;
    memset(file, 0, sizeof(*file));
    file->real = (sqlite3_file *)(file + 1);
    int result = defaultVFS->xOpen(defaultVFS, name, file->real, flags, outFlags);
    if (result != SQLITE_OK) {
        // SQLite calls xClose only on a file whose pMethods is set; the default VFS left its own unset or closed.
        file->base.pMethods = NULL;
        return result;
    }
    // The default (unix) VFS's files have version 3 methods, as this file's: each passes through to its own.
    file->base.pMethods = &bufferedMethods;
    return SQLITE_OK;
}

static void registerOnce(void) {
    defaultVFS = sqlite_nio_sqlite3_vfs_find(NULL);
    if (defaultVFS == NULL) return;
    bufferedVFS = *defaultVFS;
    bufferedVFS.zName = SQLITE_WAL_BUFFER_VFS;
    bufferedVFS.szOsFile = (int)sizeof(BufferedFile) + defaultVFS->szOsFile;
    bufferedVFS.xOpen = bufferedOpen;
    bufferedVFS.pNext = NULL;
    bufferedMethods = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = bufferedClose,
        .xRead = bufferedRead,
        .xWrite = bufferedWrite,
        .xTruncate = bufferedTruncate,
        .xSync = bufferedSync,
        .xFileSize = bufferedFileSize,
        .xLock = bufferedLock,
        .xUnlock = bufferedUnlock,
        .xCheckReservedLock = bufferedCheckReservedLock,
        .xFileControl = bufferedFileControl,
        .xSectorSize = bufferedSectorSize,
        .xDeviceCharacteristics = bufferedDeviceCharacteristics,
        .xShmMap = bufferedShmMap,
        .xShmLock = bufferedShmLock,
        .xShmBarrier = bufferedShmBarrier,
        .xShmUnmap = bufferedShmUnmap,
        .xFetch = bufferedFetch,
        .xUnfetch = bufferedUnfetch,
    };
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

int sqlite_wal_buffer_register(void) {
    pthread_once(&once, registerOnce);
    if (defaultVFS == NULL) return SQLITE_ERROR;
    if (sqlite_nio_sqlite3_vfs_find(SQLITE_WAL_BUFFER_VFS) == &bufferedVFS) return SQLITE_OK;
    return sqlite_nio_sqlite3_vfs_register(&bufferedVFS, 0);
}

long long sqlite_wal_buffer_writes(void) { return atomic_load(&writes); }

long long sqlite_wal_buffer_frames(void) { return atomic_load(&frames); }
