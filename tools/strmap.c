#include "strmap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The slot holding KEY, or the empty slot where it would go. */
static size_t slot_of(const struct strmap *m, const char *key)
{
	size_t mask = m->cap - 1, i = (size_t)hash(key) & mask;

	while (m->slots[i] && strcmp(m->keys[m->slots[i] - 1], key))
		i = (i + 1) & mask;
	return i;
}

/* Keep the table at most half full, so probe sequences stay short. */
static void grow(struct strmap *m)
{
	size_t old_cap = m->cap, *old = m->slots;

	m->cap = old_cap ? old_cap * 2 : 1024;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old_cap; i++)
		if (old[i])
			m->slots[slot_of(m, m->keys[old[i] - 1])] = old[i];
	free(old);
}

size_t strmap_intern(struct strmap *m, const char *key, bool *added)
{
	size_t s;

	if (added)
		*added = false;
	if (2 * (m->n + 1) > m->cap)
		grow(m);
	s = slot_of(m, key);
	if (m->slots[s])
		return m->slots[s] - 1;
	ALLOC_GROW(m->keys, m->n, m->keys_alloc);
	m->keys[m->n] = xstrdup(key);
	m->slots[s] = ++m->n;
	if (added)
		*added = true;
	return m->n - 1;
}

size_t strmap_find(const struct strmap *m, const char *key)
{
	size_t s;

	if (!m->cap)
		return STRMAP_NONE;
	s = slot_of(m, key);
	return m->slots[s] ? m->slots[s] - 1 : STRMAP_NONE;
}

void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
