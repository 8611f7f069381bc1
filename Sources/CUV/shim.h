#include <uv.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The calling thread's kernel id, for per-thread priorities (glibc's own
   gettid() is declared only under _GNU_SOURCE, which Swift does not set). */
static inline int lectern_thread_id(void) { return (int)syscall(SYS_gettid); }
