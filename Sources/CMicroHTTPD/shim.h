#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/random.h> /* getrandom, which Glibc's Swift module leaves out (tokens, HTTPServer) */
#include <sys/epoll.h>  /* also left out: StreamDepartures watches waiting event streams with it */
#include <microhttpd.h>

/* Swift cannot call C variadic functions: these one-line wrappers fix the options it needs. */

/* Starts a daemon on an already bound and listening socket, with a thread pool and epoll; with
   TLS when `tls_key` and `tls_cert` (PEM, read during the call only) are given and `flags` has
   MHD_USE_TLS. `notify_connection` hears each connection open and close (the server holds each
   address to its share itself, so libmicrohttpd's per-address limit is not set). */
static inline struct MHD_Daemon *wl_mhd_start(unsigned int flags, int listen_fd,
                                              unsigned int thread_pool_size,
                                              unsigned int connection_limit,
                                              MHD_NotifyConnectionCallback notify_connection, void *notify_cls,
                                              unsigned int connection_timeout,
                                              size_t connection_memory_limit,
                                              MHD_AccessHandlerCallback access_handler, void *access_cls,
                                              MHD_RequestCompletedCallback completed, void *completed_cls,
                                              void *(*uri_logger)(void *cls, const char *uri, struct MHD_Connection *c),
                                              void *uri_cls,
                                              const char *tls_key, const char *tls_cert) {
    struct MHD_OptionItem tls[] = {
        {MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)tls_key},
        {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)tls_cert},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(flags, 0, NULL, NULL, access_handler, access_cls,
                            MHD_OPTION_LISTEN_SOCKET, listen_fd,
                            MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, notify_cls,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, uri_cls,
                            MHD_OPTION_ARRAY, tls_key != NULL && tls_cert != NULL ? tls : tls + 2,
                            MHD_OPTION_END);
}

/* Sets one connection's idle timeout in seconds (the daemon's applies until then). */
static inline enum MHD_Result wl_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/* The client's address of a connection (NULL if unknown). */
static inline const struct sockaddr *wl_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/* Whether this libmicrohttpd was built with GnuTLS (the enum's aliased values keep it from Swift). */
static inline bool wl_mhd_supports_tls(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

/* What `notify_connection` kept for a connection (NULL if nothing). */
static inline void *wl_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* A connection's socket descriptor (-1 if unknown). */
static inline int wl_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* Sends a response as HTTP/1.0 would: its body unframed (no chunked encoding), the connection
   closed after it. */
static inline enum MHD_Result wl_mhd_send_unframed(struct MHD_Response *response) {
    return MHD_set_response_options(response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
}
