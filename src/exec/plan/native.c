/*
 * native.c: a docker service run natively (--native): container paths
 * mapped back to the host through docker's -v, and docker's --gpus as
 * CUDA_VISIBLE_DEVICES. (The entrypoint of an image given only arguments
 * is docker.yaml's, which normalize leaves in the wrapper: launch.c.)
 */
#include "internal.h"

#include <stdlib.h>

/* Maps a path inside the container back to the host (--native). */
char *pl_map_back(const char *v, const vol *vs, size_t nv)
{
	size_t best = nv, bl = 0;
	for (size_t i = 0; i < nv; i++) {
		size_t cl = strlen(vs[i].cont);
		if (cl > bl && !strncmp(v, vs[i].cont, cl) && (v[cl] == '\0' || v[cl] == '/')) {
			best = i;
			bl = cl;
		}
	}
	if (best == nv)
		return sl_strdup(v);
	sl_buf b = {0};
	sl_buf_puts(&b, vs[best].host);
	sl_buf_puts(&b, v + bl);
	return sl_buf_detach(&b);
}

/* docker's --gpus for a process run natively: `device=2,3` (quoted or
 * not, placeholders filled) becomes CUDA_VISIBLE_DEVICES, through which a
 * -e CUDA_VISIBLE_DEVICES of the container's own indexes is mapped; `N`
 * the first N; `all` nothing. ROCm's --device /dev/dri/renderD* is left
 * (told): the process then sees every GPU. 0, or -1 with the error. */
int pl_native_gpus(ctx *c, const sl_wrapper *dk, sl_proc *p, size_t *ecap, sl_plan *out)
{
	const json_t *dev = json_object_get(json_object_get(dk->detail, "options"), "--device");
	for (size_t i = 0; i < json_array_size(dev); i++) {
		const char *d = json_string_value(json_array_get(dev, i));
		if (d && strstr(d, "/dev/dri/renderD")) {
			sl_buf nb = {0};
			sl_buf_printf(&nb, "%s: docker's --device %s gives the container one GPU; run natively, the process sees every GPU (ROCR_VISIBLE_DEVICES is not set for it)",
				      p->name, d);
			pl_push_text(&out->notes, &out->nnotes, sl_buf_detach(&nb));
		}
	}
	const char *g = json_string_value(json_object_get(dk->detail, "gpus"));
	if (!g)
		return 0;
	size_t n = strlen(g);
	while (n >= 2 && (g[0] == '"' || g[0] == '\'') && g[n - 1] == g[0]) {
		g++;
		n -= 2;
	}
	char *spec = sl_strndup(g, n);
	int rc = 0;
	char *list = NULL;
	long long count;
	if (!strcmp(spec, "all")) {
		; /* every GPU, as natively */
	} else if (!strncmp(spec, "device=", 7)) {
		sl_buf what = {0};
		sl_buf_printf(&what, "%s --gpus", p->name);
		list = pl_fill(c, spec + 7, 0, 0, what.data);
		sl_buf_free(&what);
		rc = list ? 0 : -1;
	} else if (!sl_parse_int(spec, &count) && count > 0 && count <= 64) {
		sl_buf b = {0};
		for (long long i = 0; i < count; i++)
			sl_buf_printf(&b, "%s%lld", i ? "," : "", i);
		list = sl_buf_detach(&b);
	}
	if (list && *list) {
		/* the container's CUDA_VISIBLE_DEVICES counts the GPUs it was given */
		const char *inner = NULL;
		for (size_t i = 0; i < p->nenv && !inner; i++)
			if (!strncmp(p->env[i], "CUDA_VISIBLE_DEVICES=", 21))
				inner = p->env[i] + 21;
		char *value = sl_strdup(list);
		if (inner) {
			char **ids = NULL;
			size_t nid = 0;
			for (char *tok = list, *save = NULL; (tok = strtok_r(tok, ",", &save)); tok = NULL)
				pl_push_text(&ids, &nid, tok);
			sl_buf b = {0};
			int ok = 1;
			char *in = sl_strdup(inner);
			for (char *tok = in, *save = NULL; ok && (tok = strtok_r(tok, ",", &save)); tok = NULL) {
				long long k;
				ok = !sl_parse_int(tok, &k) && k >= 0 && (size_t)k < nid;
				if (ok)
					sl_buf_printf(&b, "%s%s", b.len ? "," : "", ids[k]);
			}
			if (ok && b.data) {
				free(value);
				value = sl_buf_detach(&b);
			}
			sl_buf_free(&b);
			free(in);
			free(ids);
		}
		pl_add_env(p, ecap, "CUDA_VISIBLE_DEVICES", value);
		free(value);
	}
	free(list);
	free(spec);
	return rc;
}
