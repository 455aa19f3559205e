// libical: RFC 5545 calendars (components, properties, values) written with the escaping,
// folding and line endings the standard asks for.
#include <libical/ical.h>
