/* chiredis.h: hiredis's async API for Swift, and Lectern's libuv adapter.
 *
 * adapter.c is the libuv event library hiredis drives (see there why it
 * is not Debian's adapters/libuv.h). */
#ifndef CHIREDIS_H
#define CHIREDIS_H

#include <hiredis/hiredis.h>
#include <hiredis/async.h>
#include <uv.h>

/* Attaches `context` to `loop`: hiredis then
 * reads and writes through a uv_poll_t on the loop's thread. Returns
 * REDIS_OK, or REDIS_ERR when the context already has an event library. */
int lectern_redis_attach(redisAsyncContext *context, uv_loop_t *loop);

#endif
