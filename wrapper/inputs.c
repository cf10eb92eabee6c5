#include "inputs.h"
#include "elf.h"
#include "ldopts.h"
#include "optrecord.h"
#include "strvec.h"
#include "toolchain.h"
#include "util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char *object_name(const struct scan_object *obj)
{
	if (obj->member)
		return xasprintf("%s(%s)", obj->path, obj->member);
	return xstrdup(obj->path);
}

/* Record one IR version with the object it was first seen in. */
static void note_ir_version(struct ir_summary *sum, int major, char *object)
{
	for (int i = 0; i < sum->n_ir_versions; i++) {
		if (sum->ir_major[i] == major) {
			free(object);
			return;
		}
	}
	if (sum->n_ir_versions == MAX_IR_VERSIONS) {
		free(object);
		return;
	}
	sum->ir_major[sum->n_ir_versions] = major;
	sum->ir_object[sum->n_ir_versions] = object;
	sum->n_ir_versions++;
}

static void note_ir_machine(struct ir_summary *sum, const struct scan_object *obj)
{
	for (int i = 0; i < sum->n_ir_machines; i++)
		if (sum->ir_machine[i] == obj->machine)
			return;
	if (sum->n_ir_machines == MAX_IR_VERSIONS)
		return;
	sum->ir_machine[sum->n_ir_machines] = obj->machine;
	sum->ir_machine_object[sum->n_ir_machines] = object_name(obj);
	sum->n_ir_machines++;
}

/* What visit_object() adds to: the summary, and the record of objects. */
struct scan_state {
	struct inputs_info *info;
	size_t input;
};

static void record_object(struct scan_state *st, const struct scan_object *obj)
{
	struct inputs_info *info = st->info;
	struct input_object *o;

	ALLOC_GROW(info->objects, info->nobjects, info->objects_alloc);
	o = &info->objects[info->nobjects++];
	o->input = st->input;
	o->path = xstrdup(obj->path);
	o->member = obj->member ? xstrdup(obj->member) : NULL;
	o->offset = obj->offset;
	o->in_thin_archive = obj->in_thin_archive;
	o->ir = obj->ir;
	o->opts = obj->lto_opts;
	o->opts_size = obj->lto_opts_size;
}

static int visit_object(const struct scan_object *obj, void *data)
{
	struct scan_state *st = data;
	struct ir_summary *sum = &st->info->ir;

	record_object(st, obj);
	if (!obj->ir) {
		if (!sum->first_native)
			sum->first_native = object_name(obj);
		return 0;
	}
	sum->any_ir = true;
	sum->n_ir++;
	if (obj->member && !obj->in_thin_archive)
		sum->n_ir_members++;
	if (obj->fat)
		sum->n_fat++;
	note_ir_version(sum, obj->lto_major, object_name(obj));
	note_ir_machine(sum, obj);
	return 0;
}

static void summary_free(struct ir_summary *sum)
{
	free(sum->first_native);
	for (int i = 0; i < sum->n_ir_versions; i++)
		free(sum->ir_object[i]);
	for (int i = 0; i < sum->n_ir_machines; i++)
		free(sum->ir_machine_object[i]);
	memset(sum, 0, sizeof(*sum));
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int inputs_scan(const struct ld_cmdline *cmd, struct inputs_info *info)
{
	double start = now_ms();

	memset(info, 0, sizeof(*info));
	info->file = xcalloc(cmd->ninputs, sizeof(*info->file));
	for (size_t i = 0; i < cmd->ninputs; i++) {
		const struct ld_input *in = &cmd->inputs[i];
		struct scan_file_info *fi = &info->file[i];
		struct scan_state st = { info, i };

		/* -b binary data, or an -l that ld will not find either */
		if (in->raw || !in->path)
			continue;
		if (scan_file(in->path, visit_object, &st, fi) != 0)
			return 1;
		if (fi->lto_ld_thin)
			info->any_lto_ld_thin = true;
		if (!info->library_archive && !fi->lto_ld_thin &&
		    (fi->kind == FILE_ARCHIVE ||
		     (fi->kind == FILE_THIN_ARCHIVE && !in->whole_archive)))
			info->library_archive = xstrdup(in->path);
	}
	/* which objects LTO will see: in archives only those the link pulls */
	trace("scanned %zu inputs in %.2f ms: %zu objects with GCC IR "
	      "(%zu in archives, %zu fat)", cmd->ninputs, now_ms() - start,
	      info->ir.n_ir, info->ir.n_ir_members, info->ir.n_fat);
	return 0;
}

int inputs_check_ir_versions(const struct inputs_info *info,
			     struct toolchain *tc)
{
	int major = toolchain_gcc_major(tc);

	for (int i = 0; i < info->ir.n_ir_versions; i++) {
		if (major <= 0 || info->ir.ir_major[i] <= 0 ||
		    info->ir.ir_major[i] == major)
			continue;
		return error("%s: GCC IR written by GCC %d, but %s is GCC %d "
			     "(LTO bytecode does not carry across GCC major "
			     "versions: rebuild it, or point LTO_LD_CC at "
			     "that compiler)", info->ir.ir_object[i],
			     info->ir.ir_major[i], tc->cc, major);
	}
	return 0;
}

/* ELF machines a target triple's gcc can compile for (-m32 and the like). */
static const int *target_machines(const char *triple)
{
	static const struct {
		const char *cpu;
		int machines[4];
	} targets[] = {
		{ "x86_64", { 62, 3 } },	{ "i386", { 3, 62 } },
		{ "i486", { 3, 62 } },		{ "i586", { 3, 62 } },
		{ "i686", { 3, 62 } },		{ "aarch64", { 183 } },
		{ "arm", { 40 } },		{ "thumb", { 40 } },
		{ "riscv", { 243 } },		{ "powerpc", { 20, 21 } },
		{ "mips", { 8 } },		{ "s390", { 22 } },
	};

	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		if (starts_with(triple, targets[i].cpu))
			return targets[i].machines;
	return NULL;	/* a target not listed: not checked */
}

int inputs_check_ir_machines(const struct inputs_info *info,
			     struct toolchain *tc)
{
	const char *triple = info->ir.n_ir_machines ? toolchain_machine(tc) : NULL;
	const int *ok = triple ? target_machines(triple) : NULL;

	for (int i = 0; ok && i < info->ir.n_ir_machines; i++) {
		int m = info->ir.ir_machine[i];
		bool known = false;

		for (int k = 0; k < 4 && ok[k]; k++)
			known = known || ok[k] == m;
		if (!known)
			return error("%s: GCC IR for %s (ELF machine %d), but "
				     "this link is for %s (%s): rebuild it for "
				     "that target, or use that target's lto-ld",
				     info->ir.ir_machine_object[i],
				     elf_machine_name(m), m, triple, tc->cc);
	}
	return 0;
}

/* Does the option record of O, in FD, hold one of OPTIONS? */
static bool record_holds(int fd, const struct input_object *o,
			 const char *const *options)
{
	struct strvec opts = STRVEC_INIT;
	bool found = false;

	if (optrecord_read(fd, o->opts, o->opts_size, &opts) != 0)
		trace("%s%s%s: its option record cannot be read: no options "
		      "taken from it", o->path, o->member ? " member " : "",
		      o->member ? o->member : "");
	for (size_t i = 0; i < opts.n && !found; i++)
		for (const char *const *p = options; *p && !found; p++)
			found = !strcmp(opts.v[i], *p);
	strvec_clear(&opts);
	return found;
}

bool inputs_ir_compiled_with(const struct inputs_info *info,
			     const char *const *options)
{
	const char *open_path = NULL;
	bool found = false;
	int fd = -1;

	for (size_t i = 0; i < info->nobjects && !found; i++) {
		const struct input_object *o = &info->objects[i];

		if (!o->ir || o->opts < 0)
			continue;
		/* an archive's members one after the other: opened once */
		if (!open_path || strcmp(open_path, o->path)) {
			if (fd >= 0)
				close(fd);
			fd = open(o->path, O_RDONLY | O_CLOEXEC);
			open_path = o->path;
		}
		found = fd >= 0 && record_holds(fd, o, options);
	}
	if (fd >= 0)
		close(fd);
	return found;
}

void inputs_free(struct inputs_info *info)
{
	summary_free(&info->ir);
	for (size_t i = 0; i < info->nobjects; i++) {
		free(info->objects[i].path);
		free(info->objects[i].member);
	}
	free(info->objects);
	free(info->library_archive);
	free(info->file);
	memset(info, 0, sizeof(*info));
}
