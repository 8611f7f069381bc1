// uchar.c: ICU character properties behind version-independent names.
#include "cicu_uchar.h"
#include <unicode/uchar.h>
#include <unicode/uscript.h>

int32_t lc_script(uint32_t c) {
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode code = uscript_getScript((UChar32)c, &status);
    return U_SUCCESS(status) ? (int32_t)code : -1;
}
const char *lc_script_code(int32_t script) { return uscript_getShortName((UScriptCode)script); }
int32_t lc_sentence_break(uint32_t c) { return u_getIntPropertyValue((UChar32)c, UCHAR_SENTENCE_BREAK); }
int32_t lc_line_break(uint32_t c) { return u_getIntPropertyValue((UChar32)c, UCHAR_LINE_BREAK); }
int32_t lc_char_type(uint32_t c) { return (int32_t)u_charType((UChar32)c); }
int32_t lc_east_asian_width(uint32_t c) { return u_getIntPropertyValue((UChar32)c, UCHAR_EAST_ASIAN_WIDTH); }
int lc_is_uppercase(uint32_t c) { return u_isUUppercase((UChar32)c) ? 1 : 0; }
int lc_is_lowercase(uint32_t c) { return u_isULowercase((UChar32)c) ? 1 : 0; }
int lc_is_alphabetic(uint32_t c) { return u_isUAlphabetic((UChar32)c) ? 1 : 0; }
int lc_is_white_space(uint32_t c) { return u_isUWhiteSpace((UChar32)c) ? 1 : 0; }
int lc_is_extended_pictographic(uint32_t c) { return u_hasBinaryProperty((UChar32)c, UCHAR_EXTENDED_PICTOGRAPHIC) ? 1 : 0; }
int lc_is_emoji_presentation(uint32_t c) { return u_hasBinaryProperty((UChar32)c, UCHAR_EMOJI_PRESENTATION) ? 1 : 0; }
int32_t lc_bidi_class(uint32_t c) { return (int32_t)u_charDirection((UChar32)c); }
