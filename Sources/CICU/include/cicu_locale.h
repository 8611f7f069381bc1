// cicu_locale.h: ICU's locale data behind version-independent names.
#ifndef CICU_LOCALE_H
#define CICU_LOCALE_H

#include <stdint.h>

/// The ISO 639 language codes ICU knows (two letters, and the three-letter
/// ones it has data or names for), as a NULL-terminated list of static
/// strings owned by ICU: valid for the life of the process.
const char *const *lc_iso_languages(void);

/// The ISO 15924 script a BCP 47 tag is written in: the tag's own script
/// subtag, else the likely one (CLDR likely subtags: `uk` → Cyrl,
/// `ja` → Jpan, `zh-TW` → Hant, `sr-Latn` → Latn). Writes it NUL-terminated
/// into `script` (`capacity` bytes, 5 is enough) and returns its length;
/// 0 (and an empty string) when ICU cannot tell.
int32_t lc_likely_script(const char *tag, char *script, int32_t capacity);

#endif
