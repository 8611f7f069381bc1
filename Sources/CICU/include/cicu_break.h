// cicu_break.h: ICU break iterators (UAX #14 lines, UAX #29 graphemes, words,
// sentences) behind version-independent names.
//
// Offsets are UTF-16 code units, as everywhere in ICU. The iterator does not
// copy the text: the caller keeps it alive and unmoved until close or the next
// set_text.
#ifndef CICU_BREAK_H
#define CICU_BREAK_H

#include <stdint.h>

typedef struct LCBreakIterator LCBreakIterator;

typedef enum {
    LC_BREAK_CHARACTER = 0, // extended grapheme clusters (UAX #29)
    LC_BREAK_WORD = 1,      // words (UAX #29)
    LC_BREAK_LINE = 2,      // line-break opportunities (UAX #14)
    LC_BREAK_SENTENCE = 3,  // sentences (UAX #29)
} LCBreakKind;

/// Returned by next/previous/following/preceding when there is no boundary.
#define LC_BREAK_DONE (-1)

/// Opens an iterator of `kind` for `locale` ("en", "en@ss=standard", "" for
/// root). Returns NULL and sets *error to ICU's UErrorCode on failure.
LCBreakIterator *lc_break_open(LCBreakKind kind, const char *locale,
                               const uint16_t *text, int32_t length,
                               int32_t *error);
void lc_break_close(LCBreakIterator *iterator);
/// Points the iterator at new text (kept by the caller). Returns UErrorCode.
int32_t lc_break_set_text(LCBreakIterator *iterator, const uint16_t *text, int32_t length);

int32_t lc_break_first(LCBreakIterator *iterator);
int32_t lc_break_last(LCBreakIterator *iterator);
int32_t lc_break_next(LCBreakIterator *iterator);
int32_t lc_break_previous(LCBreakIterator *iterator);
int32_t lc_break_current(LCBreakIterator *iterator);
/// First boundary strictly after `offset`.
int32_t lc_break_following(LCBreakIterator *iterator, int32_t offset);
/// Last boundary strictly before `offset`.
int32_t lc_break_preceding(LCBreakIterator *iterator, int32_t offset);
int lc_break_is_boundary(LCBreakIterator *iterator, int32_t offset);
/// The rule status of the boundary most recently returned. For line
/// iterators, values in [100, 200) mark a hard (mandatory) break.
int32_t lc_break_rule_status(LCBreakIterator *iterator);

#define LC_LINE_BREAK_HARD_MIN 100
#define LC_LINE_BREAK_HARD_LIMIT 200

/// ICU's version string, e.g. "72.1".
const char *lc_icu_version(void);

#endif
