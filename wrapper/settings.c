/*
 * lto-ld's settings, read once from the environment by one rule
 * (settings.h); values with a syntax are parsed here too.
 */
#include "settings.h"
#include "ldopts.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>

/* More jobs than this is a typo, not a machine. */
#define JOBS_MAX 4096

struct settings settings;

/* LTO_LD_JOBS's TEXT as a number of jobs; 0, with *WHY, when it is none. */
static long parse_jobs(const char *text, char **why)
{
	char *end;
	long jobs;

	errno = 0;
	jobs = strtol(text, &end, 10);
	if (*end || end == text || jobs < 1 || jobs > JOBS_MAX || errno) {
		*why = xasprintf("LTO_LD_JOBS='%s': expected a number of jobs "
				 "from 1 to %d", text, JOBS_MAX);
		return 0;
	}
	return jobs;
}

/* The byte count in TEXT ("500M", "2G", "1048576"); 0 when malformed. */
static uint64_t parse_size(const char *text)
{
	char *end;
	unsigned long long n;
	uint64_t unit = 1;

	errno = 0;
	n = strtoull(text, &end, 10);
	if (errno || end == text)
		return 0;
	switch (*end) {
	case 'k': case 'K': unit = (uint64_t)1 << 10; end++; break;
	case 'm': case 'M': unit = (uint64_t)1 << 20; end++; break;
	case 'g': case 'G': unit = (uint64_t)1 << 30; end++; break;
	}
	if (*end || n > UINT64_MAX / unit)
		return 0;
	return (uint64_t)n * unit;
}

/* The values with a syntax: LTO_LD_PARTIAL, LTO_LD_JOBS, LTO_LD_CACHE_SIZE. */
static void read_values(void)
{
	const char *partial = env_value("LTO_LD_PARTIAL");
	const char *jobs = env_value("LTO_LD_JOBS");
	const char *size = env_value("LTO_LD_CACHE_SIZE");

	settings.partial = PARTIAL_UNSET;
	if (partial)
		settings.partial_error = partial_mode_parse("LTO_LD_PARTIAL", partial,
							    &settings.partial);
	if (jobs)
		settings.jobs = parse_jobs(jobs, &settings.jobs_error);
	if (size && !(settings.cache_size = parse_size(size)))
		settings.cache_size_error = xasprintf("LTO_LD_CACHE_SIZE='%s' is not "
						      "a size (like 500M or 2G)", size);
}

/* The variables that are their text (env_value), and the flags (env_flag). */
static const struct {
	const char *name;
	const char **value;
} texts[] = {
	{ "LTO_LD_REAL_LD", &settings.real_ld },
	{ "LTO_LD_CC", &settings.cc },
	{ "COLLECT_GCC", &settings.collect_gcc },
	{ "LTO_LD_PLUGIN", &settings.plugin },
	{ "LTO_LD_LTO_FLAGS", &settings.lto_flags },
	{ "LTO_LD_REPORT", &settings.report },
	{ "LTO_LD_EXPORTS", &settings.exports },
	{ "LTO_LD_CACHE", &settings.cache },
};

static const struct {
	const char *name;
	bool *on;
} flags[] = {
	{ "LTO_LD_WHOLE_PROGRAM", &settings.whole_program },
	{ "LTO_LD_FINAL_WEAK", &settings.final_weak },
	{ "LTO_LD_SAVE_TEMPS", &settings.save_temps },
	{ "LTO_LD_VERBOSE", &settings.verbose },
};

void settings_read(void)
{
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		*texts[i].value = env_value(texts[i].name);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		*flags[i].on = env_flag(flags[i].name);
	verbose = settings.verbose;
	read_values();
}

void settings_apply(struct ld_cmdline *cmd)
{
	cmd->save_temps = cmd->save_temps || settings.save_temps;
	cmd->whole_program = cmd->whole_program || settings.whole_program;
	cmd->final_weak = cmd->final_weak || settings.final_weak;
	if (!cmd->report && settings.report)
		cmd->report = xstrdup(settings.report);
	if (!cmd->exports && settings.exports)
		cmd->exports = xstrdup(settings.exports);
	if (!cmd->cache && settings.cache)
		cmd->cache = xstrdup(settings.cache);
}
