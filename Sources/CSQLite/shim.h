// CSQLite: the C side of CacheStore's SQLite index.
//
// The system libsqlite3 (Debian: libsqlite3-dev) is used as is. Every helper here is a
// `static inline` wrapper with the `csqlite_` prefix, and each exists because Swift cannot use
// the C thing it wraps: SQLITE_TRANSIENT is a function-like cast of -1 to a destructor
// pointer, which the importer drops. Only CacheStore's `Index/SQLite*.swift` files import this.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT`: tells sqlite3_bind_* to copy the bytes before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
