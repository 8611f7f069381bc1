/* adapter.c: hiredis on a libuv loop.
 *
 * hiredis asks its event library to watch the socket for reading and
 * writing (ev.addRead … ev.cleanup); this is that library for libuv, one
 * uv_poll_t per connection. It is Lectern's own rather than Debian's
 * adapters/libuv.h (hiredis 0.14.1), which drops a poll callback whose
 * status is an error: libuv reports a refused connect or a reset socket
 * (POLLERR) that way, so hiredis never learned the connection was gone and
 * its callbacks never ran. Here an error status hands hiredis both events
 * it was waiting for, and its read or write then finds the socket's error
 * and disconnects, calling every callback (as later hiredis releases do). */
#include "chiredis.h"
#include <stdlib.h>

typedef struct {
    redisAsyncContext *context; /* NULL once hiredis has cleaned up */
    uv_poll_t poll;
    int events;                 /* UV_READABLE | UV_WRITABLE wanted */
} lectern_redis_watch;

static void on_poll(uv_poll_t *poll, int status, int events) {
    lectern_redis_watch *watch = poll->data;
    int ready = status != 0 ? watch->events : events;
    if (watch->context != NULL && (ready & UV_READABLE)) redisAsyncHandleRead(watch->context);
    if (watch->context != NULL && (ready & UV_WRITABLE)) redisAsyncHandleWrite(watch->context);
}

static void watch(lectern_redis_watch *w, int events) {
    w->events = events;
    if (events != 0) uv_poll_start(&w->poll, events, on_poll);
    else uv_poll_stop(&w->poll);
}

static void add_read(void *data) { lectern_redis_watch *w = data; watch(w, w->events | UV_READABLE); }
static void del_read(void *data) { lectern_redis_watch *w = data; watch(w, w->events & ~UV_READABLE); }
static void add_write(void *data) { lectern_redis_watch *w = data; watch(w, w->events | UV_WRITABLE); }
static void del_write(void *data) { lectern_redis_watch *w = data; watch(w, w->events & ~UV_WRITABLE); }

static void on_closed(uv_handle_t *handle) { free(handle->data); }

/* hiredis is freeing the context: stop naming it, and free the watch
 * once libuv has closed its handle. */
static void cleanup(void *data) {
    lectern_redis_watch *w = data;
    w->context = NULL;
    uv_close((uv_handle_t *)&w->poll, on_closed);
}

int lectern_redis_attach(redisAsyncContext *context, uv_loop_t *loop) {
    if (context->ev.data != NULL) return REDIS_ERR;
    lectern_redis_watch *w = calloc(1, sizeof(*w));
    if (w == NULL) return REDIS_ERR;
    if (uv_poll_init(loop, &w->poll, context->c.fd) != 0) {
        free(w);
        return REDIS_ERR;
    }
    w->poll.data = w;
    w->context = context;
    context->ev.addRead = add_read;
    context->ev.delRead = del_read;
    context->ev.addWrite = add_write;
    context->ev.delWrite = del_write;
    context->ev.cleanup = cleanup;
    context->ev.data = w;
    return REDIS_OK;
}
