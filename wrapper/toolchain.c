#include "toolchain.h"
#include "progs.h"
#include "settings.h"
#include "run.h"
#include "strvec.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *suffix;	/* program name ending that selects the tool */
	const char *real;	/* the binutils program it stands for */
	enum tool tool;
} tool_names[] = {
	{ "lto-ld", "ld", TOOL_LD },
	{ "lto-ar", "ar", TOOL_AR },
	{ "lto-nm", "nm", TOOL_NM },
	{ "lto-ranlib", "ranlib", TOOL_RANLIB },
};

/* "arm-linux-gnueabihf-gcc-12" -> "arm-linux-gnueabihf-"; "gcc" -> "". */
static char *prefix_of_compiler(const char *cc)
{
	const char *base = base_name(cc);
	const char *drivers[] = { "-gcc", "-g++", "-c++", "-cc" };

	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
		const char *hit = strstr(base, drivers[i]);

		if (hit)
			return xstrndup(base, (size_t)(hit - base) + 1);
	}
	return xstrdup("");
}

/* The entry of tool_names BASE ends with; NULL: run as "ld" (gcc -B). */
static int tool_name_index(const char *base)
{
	for (size_t i = 0; i < sizeof(tool_names) / sizeof(tool_names[0]); i++)
		if (ends_with(base, tool_names[i].suffix))
			return (int)i;
	return -1;
}

/* The target prefix of lto-ld run by a name of no tool (as "ld"). */
static char *prefix_of_driver(void)
{
	const char *collect_gcc = settings.collect_gcc;

	/* Called as "ld" from a gcc -B directory: follow the driver. */
	return collect_gcc ? prefix_of_compiler(collect_gcc) : xstrdup("");
}

const char *toolchain_message_name(const char *argv0)
{
	static char *name;	/* (for the whole run: messages at exit use it) */
	const char *base = base_name(argv0);
	char *prefix;

	if (tool_name_index(base) >= 0)
		return base;
	if (!name) {
		prefix = prefix_of_driver();
		name = xasprintf("%slto-ld", prefix);
		free(prefix);
	}
	return name;
}

int toolchain_init(struct toolchain *tc, const char *argv0)
{
	const char *base = base_name(argv0);
	const char *collect_gcc = settings.collect_gcc;
	const char *env_ld = settings.real_ld;
	const char *env_cc = settings.cc;
	const char *real = "ld";
	int i = tool_name_index(base);
	char *real_name;

	memset(tc, 0, sizeof(*tc));
	tc->tool = TOOL_LD;
	if (i >= 0) {
		tc->tool = tool_names[i].tool;
		real = tool_names[i].real;
		tc->prefix = xstrndup(base, strlen(base) -
					    strlen(tool_names[i].suffix));
	} else {
		tc->prefix = prefix_of_driver();
	}
	if (env_cc)
		tc->cc = xstrdup(env_cc);
	else if (collect_gcc)
		tc->cc = xstrdup(collect_gcc);
	else
		tc->cc = xasprintf("%sgcc", tc->prefix);

	if (tc->tool == TOOL_LD && env_ld)
		real_name = xstrdup(env_ld);
	else
		real_name = xasprintf("%s%s", tc->prefix, real);
	tc->real_tool = find_program(real_name);
	if (!tc->real_tool) {
		error("cannot find the real %s '%s'%s", real, real_name,
		      tc->tool == TOOL_LD ? " (set LTO_LD_REAL_LD)" : "");
		free(real_name);
		return 1;
	}
	free(real_name);
	return 0;
}

/*
 * A file lto-ld installs beside itself: BUILD_REL from this program (a
 * build tree), INSTALL_REL from its ../libexec/lto-ld/ (an install,
 * wherever it was moved), else from where make install put it.
 */
static char *find_own_file(const char *build_rel, const char *install_rel)
{
	char *const rels[] = {
		(char *)build_rel,
		xasprintf("../libexec/lto-ld/%s", install_rel),
	};
	char self[4096];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *found = NULL, *dir;

	if (len > 0) {
		self[len] = '\0';
		dir = dir_name(self);
		for (size_t i = 0; i < 2 && !found; i++) {
			found = path_join(dir, rels[i]);
			if (!is_regular_file(found)) {
				free(found);
				found = NULL;
			}
		}
		free(dir);
	}
	free(rels[1]);
#ifdef LTO_LD_PLUGIN_DIR
	if (!found) {
		found = path_join(LTO_LD_PLUGIN_DIR, install_rel);
		if (!is_regular_file(found)) {
			free(found);
			found = NULL;
		}
	}
#endif
	return found;
}

/* lto-ld's linker plugin, lto-ld-plugin.so. */
static char *find_proxy_plugin(void)
{
	return find_own_file("lto-ld-plugin.so", "lto-ld-plugin.so");
}

const char *toolchain_machine(struct toolchain *tc)
{
	char *cc_path;

	if (tc->machine)
		return tc->machine;
	cc_path = find_program(tc->cc);
	if (cc_path)
		tc->machine = gcc_ask(cc_path, "-dumpmachine");
	free(cc_path);
	return tc->machine;
}

/*
 * The compiler plugin PLUGIN was built for this gcc's major version (the
 * .gcc file beside it says which); GCC refuses a plugin of another.
 */
static bool plugin_fits(struct toolchain *tc, const char *cc_path,
			const char *plugin, bool quiet)
{
	char *stem = xstrndup(plugin, strlen(plugin) - strlen(".so"));
	char *version_file = xasprintf("%s.gcc", stem);
	char *built_for = NULL;
	bool fits = true;

	if (access(version_file, F_OK) == 0) {
		built_for = read_text_file(version_file, NULL);
		fits = built_for && atoi(built_for) == toolchain_gcc_major(tc);
		if (!fits && !quiet)
			error("%s was built for GCC %d, the compiler %s is GCC %d",
			      plugin, built_for ? atoi(built_for) : 0, cc_path,
			      toolchain_gcc_major(tc));
	}
	free(built_for);
	free(version_file);
	free(stem);
	return fits;
}

char *toolchain_find_cc_plugin(struct toolchain *tc, bool quiet)
{
	char *cc_path = find_program(tc->cc);
	char *machine, *rel, *build_rel, *found;

	if (!cc_path) {
		if (!quiet)
			error("the compiler '%s' was not found (set LTO_LD_CC)",
			      tc->cc);
		return NULL;
	}
	machine = toolchain_machine(tc) ? xstrdup(tc->machine) : NULL;
	if (!machine) {
		if (!quiet)
			error("%s -dumpmachine failed", cc_path);
		free(cc_path);
		return NULL;
	}
	/* gcc-plugin/MACHINE/ in a build tree, MACHINE/ when installed */
	rel = xasprintf("%s/lto-ld-asm-names.so", machine);
	build_rel = xasprintf("gcc-plugin/%s", rel);
	found = find_own_file(build_rel, rel);
	if (!found && !quiet)
		error("no lto-ld-asm-names.so for %s (%s): lto-ld was built "
		      "without that compiler's plugin headers (gcc-N-plugin-dev)",
		      cc_path, machine);
	if (found && !plugin_fits(tc, cc_path, found, quiet)) {
		free(found);
		found = NULL;
	}
	free(build_rel);
	free(rel);
	free(machine);
	free(cc_path);
	return found;
}

int toolchain_find_lto(struct toolchain *tc)
{
	char *cc_path = find_program(tc->cc);
	char *dir;
	const char *env_plugin = settings.plugin;

	if (tc->lto_wrapper)
		return 0;
	if (!cc_path)
		return error("GCC IR found but the compiler '%s' was not found "
			     "(set LTO_LD_CC)", tc->cc);
	free(tc->cc);
	tc->cc = cc_path;
	tc->lto_wrapper = gcc_ask(tc->cc, "-print-prog-name=lto-wrapper");
	if (!tc->lto_wrapper || !is_executable(tc->lto_wrapper))
		return error("%s: lto-wrapper not found (%s -print-prog-name="
			     "lto-wrapper gave '%s')", tc->cc, tc->cc,
			     tc->lto_wrapper ? tc->lto_wrapper : "");
	dir = dir_name(tc->lto_wrapper);
	tc->gcc_plugin = path_join(dir, "liblto_plugin.so");
	free(dir);
	if (!is_regular_file(tc->gcc_plugin)) {
		free(tc->gcc_plugin);
		tc->gcc_plugin = gcc_lto_plugin(tc->cc);
		if (!tc->gcc_plugin)
			return error("%s: GCC LTO plugin liblto_plugin.so not "
				     "found (install the gcc package that "
				     "provides it)", tc->cc);
	}
	tc->plugin = xstrdup(env_plugin ? env_plugin
						       : tc->gcc_plugin);
	if (!is_regular_file(tc->plugin))
		return error("%s: LTO plugin not found (LTO_LD_PLUGIN)",
			     tc->plugin);
	if (!env_plugin)
		tc->proxy = find_proxy_plugin();
	return 0;
}

int toolchain_gcc_major(struct toolchain *tc)
{
	char *version;

	if (!tc->gcc_major) {
		/* (tc->cc is a path only after toolchain_find_lto()) */
		char *cc = find_program(tc->cc);

		version = cc ? gcc_ask(cc, "-dumpversion") : NULL;
		tc->gcc_major = version ? atoi(version) : -1;
		free(version);
		free(cc);
	}
	return tc->gcc_major;
}

char **toolchain_default_libdirs(const struct toolchain *tc,
				 const char *emulation)
{
	struct strvec argv = STRVEC_INIT, dirs = STRVEC_INIT;
	char *out = NULL, *p;

	strvec_push(&argv, tc->real_tool);
	if (emulation) {
		strvec_push(&argv, "-m");
		strvec_push(&argv, emulation);
	}
	strvec_push(&argv, "--verbose");
	if (run_capture(argv.v, &out) == 0) {
		/* SEARCH_DIR("=/usr/lib"); SEARCH_DIR("/lib"); ... */
		for (p = out; (p = strstr(p, "SEARCH_DIR(\"")); ) {
			char *end;

			p += strlen("SEARCH_DIR(\"");
			end = strchr(p, '"');
			if (!end)
				break;
			strvec_push_nodup(&dirs, xstrndup(p, (size_t)(end - p)));
			p = end;
		}
	}
	free(out);
	strvec_clear(&argv);
	if (!dirs.n)
		strvec_push(&dirs, "/usr/lib");
	return strvec_detach(&dirs);
}

void toolchain_free(struct toolchain *tc)
{
	free(tc->prefix);
	free(tc->machine);
	free(tc->real_tool);
	free(tc->cc);
	free(tc->lto_wrapper);
	free(tc->gcc_plugin);
	free(tc->plugin);
	free(tc->proxy);
	memset(tc, 0, sizeof(*tc));
}
