// cicu_locale.h: ICU's locale data behind version-independent names.
#ifndef CICU_LOCALE_H
#define CICU_LOCALE_H

/// The ISO 639 language codes ICU knows (two letters, and the three-letter
/// ones it has data or names for), as a NULL-terminated list of static
/// strings owned by ICU: valid for the life of the process.
const char *const *lc_iso_languages(void);

#endif
