/*
 * json.c: JSON flag values (--speculative-config '{...}'), parsed from a
 * word so that an error points into the script through the word's offsets.
 */
#include "internal.h"

int sl_json_parse_word(const sl_source *src, const sl_word *w, json_t **out, sl_error *err)
{
	json_error_t je;
	*out = json_loadb(w->text, w->len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (*out)
		return SL_OK;
	size_t pos = je.position > 0 ? (size_t)je.position : 0;
	/* jansson reports the position after the offending token; its message
	 * names the token ("invalid token near 'mtp'"), so point at its start */
	if (pos > 0 && pos <= w->len)
		pos--;
	const char *near = strstr(je.text, "near '");
	if (near) {
		near += 6;
		const char *q = strrchr(near, '\'');
		size_t tl = q ? (size_t)(q - near) : 0;
		if (tl > 0 && tl <= pos + 1) {
			for (size_t k = pos + 1 - tl + 1; k-- > 0;)
				if (!memcmp(w->text + k, near, tl)) {
					pos = k;
					break;
				}
		}
	}
	unsigned l, c;
	sl_source_pos(src, pos <= w->len ? w->offs[pos] : w->start, &l, &c);
	sl_error_set(err, src->path, l, c, "invalid JSON: %s", je.text);
	return SL_ERR_INPUT;
}
