/* The gcc -B route: what lto-ld adds to the gcc driver's own LTO link. */
#include "driver.h"
#include "ltoenv.h"
#include "../cache/linkcache.h"
#include "../ldopts.h"
#include "../toolchain.h"
#include "run.h"
#include "strvec.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Append 'OPT' to the gcc driver's COLLECT_GCC_OPTIONS (gcc -B route). */
static int driver_add_option(const char *opt)
{
	const char *opts = getenv("COLLECT_GCC_OPTIONS");
	char *more;
	int rc;

	more = xasprintf("%s%s'%s'", opts, *opts ? " " : "", opt);
	trace("COLLECT_GCC_OPTIONS+='%s'", opt);
	rc = setenv("COLLECT_GCC_OPTIONS", more, 1) ? error("setenv: %s", strerror(errno)) : 0;
	free(more);
	return rc;
}

/*
 * The gcc driver's LTO link (gcc -B route): unless its options already
 * choose (-flto=N, jobserver, auto), LTRANS runs in parallel, as in
 * lto-ld's own links; GCC 12 would compile the partitions one by one.
 * With a cache, the partitions are named as in lto-ld's own links.  What
 * only lto-ld's own LTO does (a report) is said not to happen.
 */
int driver_lto_options(const struct ld_cmdline *cmd)
{
	const char *opts = getenv("COLLECT_GCC_OPTIONS");
	char *jobs_flag;
	int rc = 0;

	/* (the report is read from lto-ld's plugin, not in this chain) */
	if (cmd->report)
		warning("%s: LTO report not written: in the gcc -B route "
			"the gcc driver's LTO plugin runs LTO, not lto-ld; "
			"lto-ld reports the links it runs LTO for (lto-ld "
			"called directly, ld -r included)", cmd->report);
	if (!opts)
		return 0;
	if (!strstr(opts, "'-flto=")) {
		if (ltoenv_jobs(&jobs_flag))
			return 1;
		rc = driver_add_option(jobs_flag);
		free(jobs_flag);
	}
	if (rc == 0 && cmd->cache && !strstr(getenv("COLLECT_GCC_OPTIONS"), "'-frandom-seed="))
		rc = driver_add_option("-frandom-seed=lto-ld");
	return rc;
}

/*
 * The gcc driver's LTO link with a cache: lto-wrapper runs the LTRANS
 * compiles through lto-ld, as in lto-ld's own links.
 */
int driver_cached_link(const struct ld_cmdline *cmd, struct toolchain *tc,
		       struct strvec *argv)
{
	struct strvec env = STRVEC_INIT, settings = STRVEC_INIT;
	struct cache_link cache = { 0 };
	int rc = 1;

	if (toolchain_find_lto(tc) ||
	    cache_link_begin(&cache, cmd->cache, tc, tc->cc, &settings) ||
	    run_fit_argv(argv, 1, "ld-args.rsp"))
		goto done;
	env_with(&env, settings.v);
	rc = run_wait(argv->v, env.v);
	if (rc == 0)
		cache_link_end(&cache);
done:
	cache_link_free(&cache);
	strvec_clear(&env);
	strvec_clear(&settings);
	return rc < 0 ? 1 : rc;
}
