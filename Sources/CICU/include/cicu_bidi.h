// cicu_bidi.h: the Unicode Bidirectional Algorithm (UAX #9) through ICU's
// ubidi, behind version-independent names.
#ifndef CICU_BIDI_H
#define CICU_BIDI_H

#include <stdint.h>

typedef struct LCBidi LCBidi;

/// Paragraph level: 0 = LTR, 1 = RTL, LC_BIDI_DEFAULT_LTR = from the first
/// strong character, LTR when there is none.
#define LC_BIDI_DEFAULT_LTR 0xfe
#define LC_BIDI_DEFAULT_RTL 0xff

/// Resolves levels for one paragraph. The text must stay alive and unmoved
/// while the object (and any line made from it) is in use.
LCBidi *lc_bidi_open(const uint16_t *text, int32_t length, uint8_t paragraph_level,
                     int32_t *error);
/// A line [start, limit) of a paragraph object, for visual reordering of
/// that line alone. Close it before its paragraph.
LCBidi *lc_bidi_open_line(LCBidi *paragraph, int32_t start, int32_t limit, int32_t *error);
void lc_bidi_close(LCBidi *bidi);

/// 0 for all-LTR, 1 for all-RTL, 2 for mixed.
int lc_bidi_direction(LCBidi *bidi);
uint8_t lc_bidi_paragraph_level(LCBidi *bidi);
/// Embedding level of the character at a logical index (odd = RTL).
uint8_t lc_bidi_level_at(LCBidi *bidi, int32_t index);
/// Number of visual runs; runs are numbered in visual order, left to right.
int32_t lc_bidi_count_runs(LCBidi *bidi, int32_t *error);
/// The logical start and length of visual run `index`; returns 1 if the run
/// is RTL, 0 if LTR.
int lc_bidi_visual_run(LCBidi *bidi, int32_t index, int32_t *logical_start, int32_t *length);

#endif
