// locale.c: ICU locale data behind version-independent names.
#include "cicu_locale.h"
#include <unicode/uloc.h>

const char *const *lc_iso_languages(void) { return uloc_getISOLanguages(); }

int32_t lc_likely_script(const char *tag, char *script, int32_t capacity) {
    if (capacity <= 0) return 0;
    script[0] = 0;
    UErrorCode status = U_ZERO_ERROR;
    char locale[ULOC_FULLNAME_CAPACITY];
    int32_t parsed = 0;
    uloc_forLanguageTag(tag, locale, (int32_t)sizeof locale, &parsed, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return 0;
    char maximized[ULOC_FULLNAME_CAPACITY];
    uloc_addLikelySubtags(locale, maximized, (int32_t)sizeof maximized, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return 0;
    int32_t length = uloc_getScript(maximized, script, capacity, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING || length >= capacity) {
        script[0] = 0;
        return 0;
    }
    return length;
}
