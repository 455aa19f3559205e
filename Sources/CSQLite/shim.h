// The pre-update hook is compiled into Debian's libsqlite3; its declaration needs this define.
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro cast Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
