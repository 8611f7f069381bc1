// libmicrohttpd (Debian libmicrohttpd-dev) for lecternd's --metrics-port.
// MHD_start_daemon is variadic, which Swift cannot call: these inline
// wrappers fix its options.
#include <stddef.h>
#include <microhttpd.h>

/// MHD_NO, for a callback that refuses (Swift sees MHD_Result as an enum).
static inline enum MHD_Result lectern_mhd_no(void) { return MHD_NO; }

/// Serves HTTP on `listen_socket` (bound and listening; MHD closes it when
/// stopped) from one internal thread that polls and calls `handler`.
/// At most 16 connections at once, each closed after 10 s idle.
static inline struct MHD_Daemon *lectern_mhd_start(int listen_socket, int ipv6, MHD_AccessHandlerCallback handler, void *context) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    if (ipv6) flags |= MHD_USE_IPv6;
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_socket,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)16,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
        MHD_OPTION_END);
}

/// Queues a response of `length` bytes (copied) with a Content-Type.
static inline enum MHD_Result lectern_mhd_respond(struct MHD_Connection *connection, unsigned int status,
                                                  const char *content_type, const void *body, size_t length) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}
