// Linux calls that Swift's Glibc module leaves out, for the SSE benchmark client: epoll (waiting
// on thousands of sockets at once) and memmem (a GNU extension, hidden without _GNU_SOURCE).
#include <stddef.h>
#include <sys/epoll.h>

void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);
