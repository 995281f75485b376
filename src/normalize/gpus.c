/*
 * gpus.c: the GPUs each service is given: visible-device variables
 * (CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES, set by
 * the command, else listed in comments), docker --gpus and --device
 * /dev/kfd, mpirun -n. Uses no other file of the stage (the service's env
 * and wrappers only).
 */
#include "topology.h"

#include <string.h>

static json_t *split_devices(const char *v)
{
	json_t *a = json_array();
	const char *p = v;
	while (*p) {
		const char *q = strchr(p, ',');
		size_t n = q ? (size_t)(q - p) : strlen(p);
		if (n)
			json_array_append_new(a, json_stringn(p, n));
		if (!q)
			break;
		p = q + 1;
	}
	return a;
}

static const sl_env *env_get(const sl_service *s, const char *name, int comments)
{
	const sl_env *best = NULL;
	for (size_t i = 0; i < s->nenv; i++) {
		const sl_env *e = &s->env[i];
		if (strcmp(e->name, name) || (e->flags & SL_SET_OVERRIDDEN))
			continue;
		if (!comments && !strcmp(e->via, "comment"))
			continue;
		best = e;
	}
	return best;
}

static void set_gpus(sl_service *s, long n, const char *from, json_t *devices,
		     const sl_source *src, uint32_t off, const char *raw)
{
	s->gpus = n;
	free(s->gpus_from);
	s->gpus_from = sl_strdup(from);
	json_decref(s->gpu_devices);
	s->gpu_devices = devices;
	sl_origin_clear(&s->gpus_origin);
	sl_origin_set(&s->gpus_origin, src, off, raw);
}

static int from_env(sl_service *s, int comments)
{
	/* ROCR_VISIBLE_DEVICES names the physical GPUs and HIP_VISIBLE_DEVICES
	 * indexes into what it leaves, so with both, the devices are ROCR's and
	 * the count is the smaller list's */
	static const char *const vars[] = {"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
					   "HIP_VISIBLE_DEVICES"};
	for (size_t k = 0; k < 3; k++) {
		const sl_env *e = env_get(s, vars[k], comments);
		if (!e)
			continue;
		json_t *d = split_devices(e->value);
		long n = (e->flags & SL_SET_SYMBOLIC) ? -1 : (long)json_array_size(d);
		const sl_env *hip = k == 1 ? env_get(s, vars[2], comments) : NULL;
		if (hip && n >= 0 && !(hip->flags & SL_SET_SYMBOLIC)) {
			json_t *hd = split_devices(hip->value);
			if ((long)json_array_size(hd) < n)
				n = (long)json_array_size(hd);
			json_decref(hd);
		}
		sl_buf from = {0};
		int per_node = (e->flags & SL_SET_PER_NODE) != 0;
		sl_buf_printf(&from, "%s%s", vars[k],
			      strcmp(e->via, "comment") ? "" : per_node ? " (comment, per node)" : " (comment)");
		/* devices per node say nothing of a replica spread over nodes */
		set_gpus(s, per_node ? -1 : n, from.data, d, e->origin.src, e->origin.off, e->origin.raw);
		sl_buf_free(&from);
		return 1;
	}
	return 0;
}

void sl_topo_assign_gpus(sl_service *s)
{
	if (from_env(s, 0))
		return;
	for (size_t i = 0; i < s->nwrappers; i++) {
		const sl_wrapper *w = &s->wrappers[i];
		json_t *g = json_object_get(w->detail, "gpus");
		json_t *at = json_object_get(w->detail, "_at");
		uint32_t off = at ? (uint32_t)json_integer_value(at) : w->origin.off;
		if (json_is_string(g)) {
			/* docker --gpus: all | N | "device=0,1" (the quotes are docker's) */
			char *v = sl_strdup(json_string_value(g));
			char *p = v;
			size_t n = strlen(p);
			if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
				p[n - 1] = '\0';
				p++;
			}
			sl_buf raw = {0};
			sl_buf_printf(&raw, "--gpus %s", json_string_value(g));
			long long cnt;
			if (!strcmp(p, "all")) {
				set_gpus(s, -2, "docker --gpus", json_array(), w->origin.src, off, raw.data);
			} else if (!sl_parse_int(p, &cnt)) {
				set_gpus(s, (long)cnt, "docker --gpus", json_array(), w->origin.src, off,
					 raw.data);
			} else {
				if (sl_starts_with(p, "device="))
					p += 7;
				size_t pat, pl = sl_find_placeholder(p, strlen(p), &pat);
				/* "<0,1>" is one placeholder, not two devices */
				json_t *d = pl && pat == 0 && pl == strlen(p) ? json_pack("[s]", p) : split_devices(p);
				long count = (long)json_array_size(d);
				/* "<8 GPUs>": a placeholder that still says how many */
				size_t at, ph;
				int is_ph = 0;
				if (json_array_size(d) == 1 &&
				    (ph = sl_find_placeholder(p, strlen(p), &at)) != 0) {
					is_ph = 1;
					long long k;
					char *num = sl_strndup(p + at + 1, ph - 2);
					char *sp = strchr(num, ' ');
					if (sp)
						*sp = '\0';
					count = !sl_parse_int(num, &k) && sp ? (long)k : -1;
					free(num);
					is_ph = 1;
				}
				set_gpus(s, count, "docker --gpus", d, w->origin.src, off, raw.data);
				s->gpus_placeholder = is_ph;
			}
			sl_buf_free(&raw);
			free(v);
			return;
		}
	}
	/* ROCm containers reach the GPUs through --device=/dev/kfd (and /dev/dri):
	 * every GPU of the host, like --gpus all */
	for (size_t i = 0; i < s->nwrappers; i++) {
		json_t *dev = json_object_get(json_object_get(s->wrappers[i].detail, "options"), "--device");
		int kfd = 0;
		if (json_is_string(dev))
			kfd = !strncmp(json_string_value(dev), "/dev/kfd", 8);
		size_t k;
		json_t *v;
		if (json_is_array(dev))
			json_array_foreach(dev, k, v)
				kfd |= json_is_string(v) && !strncmp(json_string_value(v), "/dev/kfd", 8);
		if (kfd) {
			json_t *at = json_object_get(s->wrappers[i].detail, "_kfd_at");
			set_gpus(s, -2, "docker --device /dev/kfd", json_array(), s->wrappers[i].origin.src,
				 at ? (uint32_t)json_integer_value(at) : s->wrappers[i].origin.off,
				 "--device=/dev/kfd");
			return;
		}
	}
	for (size_t i = 0; i < s->nwrappers; i++) {
		const sl_wrapper *w = &s->wrappers[i];
		json_t *r = json_object_get(w->detail, "ranks");
		json_t *at = json_object_get(w->detail, "_at");
		if (json_is_integer(r)) {
			sl_buf raw = {0};
			sl_buf_printf(&raw, "-n %lld", (long long)json_integer_value(r));
			set_gpus(s, (long)json_integer_value(r), "mpirun -n", json_array(), w->origin.src,
				 at ? (uint32_t)json_integer_value(at) : w->origin.off, raw.data);
			sl_buf_free(&raw);
			return;
		}
	}
	from_env(s, 1);
}
