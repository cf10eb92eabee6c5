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

void settings_read(void)
{
	settings.real_ld = env_value("LTO_LD_REAL_LD");
	settings.cc = env_value("LTO_LD_CC");
	settings.collect_gcc = env_value("COLLECT_GCC");
	settings.plugin = env_value("LTO_LD_PLUGIN");
	settings.lto_flags = env_value("LTO_LD_LTO_FLAGS");
	settings.report = env_value("LTO_LD_REPORT");
	settings.exports = env_value("LTO_LD_EXPORTS");
	settings.cache = env_value("LTO_LD_CACHE");
	settings.whole_program = env_flag("LTO_LD_WHOLE_PROGRAM");
	settings.final_weak = env_flag("LTO_LD_FINAL_WEAK");
	settings.save_temps = env_flag("LTO_LD_SAVE_TEMPS");
	settings.verbose = env_flag("LTO_LD_VERBOSE");
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
