// libhyphen's header (Debian libhyphen-dev).
#include <hyphen.h>
