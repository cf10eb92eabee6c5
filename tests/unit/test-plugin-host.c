/*
 * lto-ld-plugin.so under a linker host written for this test, because the
 * installed ld (binutils 2.40) cannot offer what is tested: binutils
 * 2.41's second claim-file hook (LDPT_REGISTER_CLAIM_FILE_HOOK_V2, which
 * GCC 13 registers), and transfer vector entries the plugin does not know.
 * This program stands in for ld only; the plugin is the built one, in
 * front of fake-lto-plugin.so, since GCC 12's plugin registers only the
 * first hook.  Real links are tests/toolchain/plugin.sh's.
 *
 * The plugin keeps its state in statics, so each scenario loads it in a
 * child process; the child's checks come back through a pipe.
 */
#include "tap.h"

#include <stdint.h>	/* plugin-api.h needs it first */
#include <plugin-api.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TAG_CLAIM_FILE_HOOK_V2 35	/* binutils 2.41 */
#define TAG_UNKNOWN 99			/* no binutils has it */

typedef enum ld_plugin_status (*claim_v2_handler)(
	const struct ld_plugin_input_file *, int *, bool);

static char plugin[4096], fake[4096], dir[4096];

/* The linker side: what the plugin registered, what it said. */
static struct {
	ld_plugin_claim_file_handler claim;
	claim_v2_handler claim_v2;
	ld_plugin_all_symbols_read_handler all_read;
	char messages[4096];
	int results;		/* the pipe to the parent */
} host;

/* ---- the linker's calls ---- */

static enum ld_plugin_status host_message(int level, const char *fmt, ...)
{
	size_t used = strlen(host.messages);
	va_list ap;

	(void)level;
	va_start(ap, fmt);
	vsnprintf(host.messages + used, sizeof(host.messages) - used, fmt, ap);
	va_end(ap);
	return LDPS_OK;
}

static enum ld_plugin_status host_register_claim(ld_plugin_claim_file_handler h)
{
	host.claim = h;
	return LDPS_OK;
}

static enum ld_plugin_status host_register_claim_v2(claim_v2_handler h)
{
	host.claim_v2 = h;
	return LDPS_OK;
}

static enum ld_plugin_status
host_register_all_read(ld_plugin_all_symbols_read_handler h)
{
	host.all_read = h;
	return LDPS_OK;
}

/* What BFD ld answers in ld -r for IR definitions nothing native uses. */
static enum ld_plugin_status host_get_symbols(const void *handle, int n,
					      struct ld_plugin_symbol *syms)
{
	(void)handle;
	for (int i = 0; i < n; i++)
		syms[i].resolution = LDPR_PREVAILING_DEF_IRONLY_EXP;
	return LDPS_OK;
}

/* ---- the child's side: checks, the vector, the link ---- */

__attribute__((format(printf, 2, 3)))
static void expect(bool cond, const char *fmt, ...)
{
	char desc[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	dprintf(host.results, "%d %s\n", cond, desc);
	if (!cond && host.messages[0])
		dprintf(host.results, "# the plugin said: %s\n", host.messages);
}

/* The transfer vector ld -r gives: OPTS (NULL-ended), V2 if OFFER_V2, TAG if not 0. */
static void make_tv(struct ld_plugin_tv *tv, const char *const *opts,
		    bool offer_v2, int tag)
{
	int n = 0;

	tv[n].tv_tag = LDPT_MESSAGE;
	tv[n++].tv_u.tv_message = host_message;
	tv[n].tv_tag = LDPT_LINKER_OUTPUT;
	tv[n++].tv_u.tv_val = LDPO_REL;
	tv[n].tv_tag = LDPT_REGISTER_CLAIM_FILE_HOOK;
	tv[n++].tv_u.tv_register_claim_file = host_register_claim;
	if (offer_v2) {
		tv[n].tv_tag = (enum ld_plugin_tag)TAG_CLAIM_FILE_HOOK_V2;
		tv[n++].tv_u.tv_register_claim_file =
			(ld_plugin_register_claim_file)host_register_claim_v2;
	}
	tv[n].tv_tag = LDPT_REGISTER_ALL_SYMBOLS_READ_HOOK;
	tv[n++].tv_u.tv_register_all_symbols_read = host_register_all_read;
	tv[n].tv_tag = LDPT_GET_SYMBOLS_V2;
	tv[n++].tv_u.tv_get_symbols = host_get_symbols;
	if (tag) {
		tv[n].tv_tag = (enum ld_plugin_tag)tag;
		tv[n++].tv_u.tv_val = 0;
	}
	for (; *opts; opts++) {
		tv[n].tv_tag = LDPT_OPTION;
		tv[n++].tv_u.tv_string = *opts;
	}
	tv[n].tv_tag = LDPT_NULL;
	tv[n].tv_u.tv_val = 0;
}

/* The plugin's onload on TV. */
static enum ld_plugin_status load(struct ld_plugin_tv *tv)
{
	void *h = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
	ld_plugin_onload onload;

	if (!h) {
		expect(false, "dlopen %s: %s", plugin, dlerror());
		_exit(1);
	}
	onload = (ld_plugin_onload)(uintptr_t)dlsym(h, "onload");
	return onload(tv);
}

/* The address of NAME in the fake plugin the proxy loaded. */
static uintptr_t fake_symbol(const char *name)
{
	void *h = dlopen(fake, RTLD_NOW | RTLD_NOLOAD);

	return h ? (uintptr_t)dlsym(h, name) : 0;
}

static int fake_int(const char *name)
{
	int *p = (int *)fake_symbol(name);

	return p ? *p : -1;
}

static bool file_has(const char *path, const char *text)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t got = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (got < 0)
		return false;
	buf[got] = '\0';
	return strstr(buf, text) != NULL;
}

/* ld's claim and symbol resolution for the one input PATH. */
static enum ld_plugin_status link_one(const char *path)
{
	struct ld_plugin_input_file f = { .name = path };
	struct stat st;
	int claimed = 0;
	enum ld_plugin_status rc;

	f.fd = open(path, O_RDONLY);
	if (f.fd < 0 || fstat(f.fd, &st))
		return LDPS_ERR;
	f.filesize = st.st_size;
	f.handle = &f;
	/* ld 2.41 calls only the second handler when both are registered */
	if (host.claim_v2 && host.claim)
		rc = host.claim_v2(&f, &claimed, true);
	else if (host.claim)
		rc = host.claim(&f, &claimed);
	else
		rc = LDPS_ERR;
	if (rc == LDPS_OK && claimed && host.all_read)
		rc = host.all_read();
	close(f.fd);
	return rc;
}

/* ---- an input: an ELF object whose .lto_ld.asm_names names asm_target ---- */

static void put(unsigned char *p, uint64_t v, int size)
{
	for (int i = 0; i < size; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Section header I at P: name offset, type, offset, size. */
static void section(unsigned char *p, int i, uint32_t name, uint32_t type,
		    uint64_t off, uint64_t size)
{
	p += 64 * i;
	put(p, name, 4);
	put(p + 4, type, 4);
	put(p + 24, off, 8);
	put(p + 32, size, 8);
}

static bool write_object(const char *path)
{
	static const char names[] = "asm_target";
	static const char strs[] = "\0.lto_ld.asm_names\0.shstrtab";
	unsigned char obj[64 + 16 + 32 + 3 * 64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	bool done;

	put(obj + 16, 1, 2);		/* ET_REL */
	put(obj + 18, 62, 2);		/* x86-64 */
	put(obj + 20, 1, 4);
	put(obj + 40, 64 + 16 + 32, 8);	/* e_shoff */
	put(obj + 52, 64, 2);
	put(obj + 58, 64, 2);
	put(obj + 60, 3, 2);
	put(obj + 62, 2, 2);		/* .shstrtab */
	memcpy(obj + 64, names, sizeof(names));
	memcpy(obj + 80, strs, sizeof(strs));
	section(obj + 112, 1, 1, 1, 64, sizeof(names));
	section(obj + 112, 2, 19, 3, 80, sizeof(strs));
	done = fd >= 0 && write(fd, obj, sizeof(obj)) == (ssize_t)sizeof(obj);
	if (fd >= 0)
		close(fd);
	return done;
}

/* ---- the scenarios (in the child) ---- */

/*
 * A whole-program ld -r with the symbols list: OFFER_V2 is a 2.41 ld,
 * FAKE_V1_ONLY a GCC 12 plugin.  GCC's handler must be reached through
 * the proxy's, with the linker's arguments, and the policy applied.
 */
static void through_proxy(bool offer_v2, bool fake_v1_only)
{
	char obj[4200], syms[4200], opt_syms[4300], opt_gcc[4200], want[8600];
	const char *opts[] = { opt_gcc, "-fake-gcc-option", "lto-ld:whole-program",
			       opt_syms, fake_v1_only ? "fake:v1-only" : NULL, NULL };
	struct ld_plugin_tv tv[16];
	int v2 = offer_v2 && !fake_v1_only;

	snprintf(obj, sizeof(obj), "%s/a.o", dir);
	snprintf(syms, sizeof(syms), "%s/syms-%d%d", dir, offer_v2, fake_v1_only);
	snprintf(opt_syms, sizeof(opt_syms), "lto-ld:symbols=%s", syms);
	snprintf(opt_gcc, sizeof(opt_gcc), "lto-ld:gcc-plugin=%s", fake);
	make_tv(tv, opts, offer_v2, 0);
	expect(load(tv) == LDPS_OK, "onload");
	expect(v2 ? host.claim_v2 && (uintptr_t)host.claim_v2 != fake_symbol("fake_claim_file_v2")
		  : !host.claim_v2,
	       v2 ? "GCC's second claim-file handler is registered through the proxy's"
		  : "no second claim-file handler registered");
	expect(host.claim && (uintptr_t)host.claim != fake_symbol("fake_claim_file"),
	       "GCC's first claim-file handler is registered through the proxy's");
	expect(link_one(obj) == LDPS_OK, "the link");
	expect(fake_int(v2 ? "fake_v2_calls" : "fake_v1_calls") == 1 &&
	       fake_int(v2 ? "fake_v1_calls" : "fake_v2_calls") == 0,
	       "the linker's call reached GCC's %s handler once", v2 ? "second" : "first");
	if (v2)
		expect(fake_int("fake_known_used") == 1, "known_used reached GCC's handler");
	expect(fake_int("fake_resolution") == LDPR_PREVAILING_DEF_IRONLY,
	       "foo was internalized");
	expect(((int *)fake_symbol("fake_resolution"))[1] == LDPR_PREVAILING_DEF_IRONLY_EXP,
	       "asm_target was kept: the proxy read .lto_ld.asm_names when the file was claimed");
	snprintf(want, sizeof(want), "file\t%s\t0\n", obj);
	expect(file_has(syms, want), "the symbols list names the claimed file");
	expect(file_has(syms, "\tPREVAILING_DEF_IRONLY\tinternalized\t"),
	       "the symbols list says a definition was made internal");
}

/* A vector of more than 64 entries: the policy option at its end counts. */
static void long_vector(void)
{
	char opt_gcc[4200], obj[4200];
	const char *opts[104];
	struct ld_plugin_tv tv[128];
	int n = 0;

	snprintf(opt_gcc, sizeof(opt_gcc), "lto-ld:gcc-plugin=%s", fake);
	snprintf(obj, sizeof(obj), "%s/a.o", dir);
	opts[n++] = opt_gcc;
	while (n < 100)
		opts[n++] = "-fake-gcc-option";
	opts[n++] = "lto-ld:whole-program";
	opts[n] = NULL;
	make_tv(tv, opts, true, 0);
	expect(load(tv) == LDPS_OK, "onload");
	expect(link_one(obj) == LDPS_OK, "the link");
	expect(fake_int("fake_resolution") == LDPR_PREVAILING_DEF_IRONLY,
	       "foo was internalized: the last option was read");
}

/* Without a policy the proxy only forwards, an unknown entry too. */
static void forward_only(void)
{
	char opt_gcc[4200];
	const char *opts[] = { opt_gcc, NULL };
	struct ld_plugin_tv tv[16];

	snprintf(opt_gcc, sizeof(opt_gcc), "lto-ld:gcc-plugin=%s", fake);
	make_tv(tv, opts, true, TAG_UNKNOWN);
	expect(load(tv) == LDPS_OK, "onload");
	expect((uintptr_t)host.claim_v2 == fake_symbol("fake_claim_file_v2") &&
	       (uintptr_t)host.claim == fake_symbol("fake_claim_file"),
	       "GCC's handlers are registered with the linker as they are");
}

/* Under a policy (POLICY_OPT), an entry the proxy does not know is refused. */
static void unknown_refused(const char *policy_opt)
{
	char opt_gcc[4200];
	const char *opts[] = { opt_gcc, policy_opt, NULL };
	struct ld_plugin_tv tv[16];

	snprintf(opt_gcc, sizeof(opt_gcc), "lto-ld:gcc-plugin=%s", fake);
	make_tv(tv, opts, true, TAG_UNKNOWN);
	expect(load(tv) == LDPS_ERR, "onload fails");
	expect(strstr(host.messages, "transfer vector entry 99, which this plugin "
		      "does not know") && strstr(host.messages, "refused"),
	       "the error names the entry and says it is refused");
	expect(!fake_symbol("fake_claim_file"), "GCC's plugin was not loaded");
}

/* ---- the parent: one child per scenario, its checks as TAP ---- */

static void scenario(const char *name, void (*run)(const void *), const void *arg)
{
	int fds[2], status;
	char line[1024];
	FILE *in;
	pid_t pid;
	int seen = 0;

	if (pipe(fds))
		tap_bail_out("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail_out("fork");
	if (pid == 0) {
		close(fds[0]);
		host.results = fds[1];
		run(arg);
		_exit(0);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (in && fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#') {
			printf("%s\n", line);
			continue;
		}
		seen++;
		ok(line[0] == '1', "%s: %s", name, line + 2);
	}
	if (in)
		fclose(in);
	waitpid(pid, &status, 0);
	ok(seen && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "%s: the host ran to its end", name);
}

static void run_v2(const void *arg) { (void)arg; through_proxy(true, false); }
static void run_v1_linker(const void *arg) { (void)arg; through_proxy(false, false); }
static void run_v1_gcc(const void *arg) { (void)arg; through_proxy(true, true); }
static void run_long(const void *arg) { (void)arg; long_vector(); }
static void run_forward(const void *arg) { (void)arg; forward_only(); }
static void run_unknown(const void *arg) { unknown_refused(arg); }

/* Removes what the scenarios wrote in DIR, then DIR. */
static void clean_dir(void)
{
	static const char *const files[] = {
		"a.o", "syms-10", "int-10", "syms-00", "int-00", "syms-11", "int-11",
	};
	char path[4300];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	const char *build = getenv("TOP_BUILDDIR");
	char obj[4200];

	if (!build)
		build = ".";
	snprintf(plugin, sizeof(plugin), "%s/lto-ld-plugin.so", build);
	snprintf(fake, sizeof(fake), "%s/tests/unit/fake-lto-plugin.so", build);
	snprintf(dir, sizeof(dir), "%s/lto-ld-plugin-host.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		tap_bail_out("mkdtemp");
	snprintf(obj, sizeof(obj), "%s/a.o", dir);
	if (!write_object(obj))
		tap_bail_out(obj);

	scenario("binutils 2.41 ld, GCC 13 plugin (both hooks)", run_v2, NULL);
	scenario("binutils 2.40 ld (first hook only)", run_v1_linker, NULL);
	scenario("binutils 2.41 ld, GCC 12 plugin (first hook only)", run_v1_gcc, NULL);
	scenario("107 entries, --lto-whole-program last", run_long, NULL);
	scenario("no policy, an unknown entry", run_forward, NULL);
	scenario("--lto-whole-program, an unknown entry", run_unknown,
		 "lto-ld:whole-program");
	scenario("--lto-keep-symbol, an unknown entry", run_unknown, "lto-ld:keep=foo");
	scenario("--lto-report, an unknown entry", run_unknown,
		 "lto-ld:symbols=/dev/null");
	clean_dir();
	return tap_done();
}
