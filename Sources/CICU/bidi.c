// bidi.c: ICU's ubidi (UAX #9) behind version-independent names.
#include "cicu_bidi.h"
#include <unicode/ubidi.h>

LCBidi *lc_bidi_open(const uint16_t *text, int32_t length, uint8_t paragraph_level,
                     int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    if (U_SUCCESS(status)) {
        ubidi_setPara(bidi, (const UChar *)text, length, (UBiDiLevel)paragraph_level, NULL, &status);
    }
    if (error) *error = (int32_t)status;
    if (U_FAILURE(status)) {
        if (bidi) ubidi_close(bidi);
        return NULL;
    }
    return (LCBidi *)bidi;
}

LCBidi *lc_bidi_open_line(LCBidi *paragraph, int32_t start, int32_t limit, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *line = ubidi_openSized(limit - start, 0, &status);
    if (U_SUCCESS(status)) {
        ubidi_setLine((const UBiDi *)paragraph, start, limit, line, &status);
    }
    if (error) *error = (int32_t)status;
    if (U_FAILURE(status)) {
        if (line) ubidi_close(line);
        return NULL;
    }
    return (LCBidi *)line;
}

void lc_bidi_close(LCBidi *bidi) {
    if (bidi) ubidi_close((UBiDi *)bidi);
}

int lc_bidi_direction(LCBidi *bidi) { return (int)ubidi_getDirection((const UBiDi *)bidi); }
uint8_t lc_bidi_paragraph_level(LCBidi *bidi) { return ubidi_getParaLevel((const UBiDi *)bidi); }
uint8_t lc_bidi_level_at(LCBidi *bidi, int32_t index) {
    return ubidi_getLevelAt((const UBiDi *)bidi, index);
}

int32_t lc_bidi_count_runs(LCBidi *bidi, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t n = ubidi_countRuns((UBiDi *)bidi, &status);
    if (error) *error = (int32_t)status;
    return U_SUCCESS(status) ? n : 0;
}

int lc_bidi_visual_run(LCBidi *bidi, int32_t index, int32_t *logical_start, int32_t *length) {
    return ubidi_getVisualRun((UBiDi *)bidi, index, logical_start, length) == UBIDI_RTL ? 1 : 0;
}
