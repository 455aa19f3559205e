// sys/epoll.h, which Swift's Glibc module leaves out: the SSE benchmark client waits on
// thousands of sockets at once.
#include <sys/epoll.h>
