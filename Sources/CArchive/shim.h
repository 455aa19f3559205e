#include <archive.h>
#include <archive_entry.h>

// The AE_IF* file types are macros with a cast, which Swift does not import.
static const unsigned int carchive_regular_file = AE_IFREG;
static const unsigned int carchive_directory = AE_IFDIR;
static const unsigned int carchive_symbolic_link = AE_IFLNK;
