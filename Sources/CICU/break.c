// break.c: ICU break iterators behind version-independent names.
#include "cicu_break.h"
#include <unicode/ubrk.h>
#include <unicode/uversion.h>

LCBreakIterator *lc_break_open(LCBreakKind kind, const char *locale,
                               const uint16_t *text, int32_t length,
                               int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIteratorType type;
    switch (kind) {
    case LC_BREAK_CHARACTER: type = UBRK_CHARACTER; break;
    case LC_BREAK_WORD: type = UBRK_WORD; break;
    case LC_BREAK_LINE: type = UBRK_LINE; break;
    default: type = UBRK_SENTENCE; break;
    }
    UBreakIterator *bi = ubrk_open(type, locale, (const UChar *)text, length, &status);
    if (error) *error = (int32_t)status;
    if (U_FAILURE(status)) {
        if (bi) ubrk_close(bi);
        return NULL;
    }
    return (LCBreakIterator *)bi;
}

void lc_break_close(LCBreakIterator *iterator) {
    if (iterator) ubrk_close((UBreakIterator *)iterator);
}

int32_t lc_break_set_text(LCBreakIterator *iterator, const uint16_t *text, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText((UBreakIterator *)iterator, (const UChar *)text, length, &status);
    return (int32_t)status;
}

int32_t lc_break_first(LCBreakIterator *it) { return ubrk_first((UBreakIterator *)it); }
int32_t lc_break_last(LCBreakIterator *it) { return ubrk_last((UBreakIterator *)it); }
int32_t lc_break_next(LCBreakIterator *it) { return ubrk_next((UBreakIterator *)it); }
int32_t lc_break_previous(LCBreakIterator *it) { return ubrk_previous((UBreakIterator *)it); }
int32_t lc_break_current(LCBreakIterator *it) { return ubrk_current((UBreakIterator *)it); }
int32_t lc_break_following(LCBreakIterator *it, int32_t offset) {
    return ubrk_following((UBreakIterator *)it, offset);
}
int32_t lc_break_preceding(LCBreakIterator *it, int32_t offset) {
    return ubrk_preceding((UBreakIterator *)it, offset);
}
int lc_break_is_boundary(LCBreakIterator *it, int32_t offset) {
    return ubrk_isBoundary((UBreakIterator *)it, offset) ? 1 : 0;
}
int32_t lc_break_rule_status(LCBreakIterator *it) {
    return ubrk_getRuleStatus((UBreakIterator *)it);
}

const char *lc_icu_version(void) { return U_ICU_VERSION; }
