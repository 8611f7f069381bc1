// locale.c: ICU locale data behind version-independent names.
#include "cicu_locale.h"
#include <unicode/uloc.h>

const char *const *lc_iso_languages(void) { return uloc_getISOLanguages(); }
