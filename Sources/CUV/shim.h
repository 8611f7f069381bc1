#include <uv.h>
