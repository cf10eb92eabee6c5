#include "tmp.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TMP_FILES 64
#define MAX_OUTPUTS 4	/* the link's output and the --lto-report file */

static char *dir_path;
/* Outputs written under a temporary name, renamed when committed. */
static struct {
	char *final;
	char *volatile tmp;	/* NULL once committed or removed */
} outputs[MAX_OUTPUTS];
static volatile int noutputs;
static bool keep_files;
/* Files lto-ld itself created in dir_path, for the signal-safe cleanup. */
static char *own_files[MAX_TMP_FILES];
static volatile int own_count;

void tmp_keep(bool keep)
{
	keep_files = keep;
}

const char *tmp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *templ;

	if (dir_path)
		return dir_path;
	if (!base || !*base)
		base = "/tmp";
	templ = xasprintf("%s/lto-ld.XXXXXX", base);
	if (!mkdtemp(templ)) {
		error("cannot create a temporary directory in %s: %s", base,
		      strerror(errno));
		free(templ);
		return NULL;
	}
	dir_path = templ;
	return dir_path;
}

char *tmp_file(const char *name)
{
	const char *dir = tmp_dir();
	char *path;

	if (!dir)
		return NULL;
	path = path_join(dir, name);
	if (own_count < MAX_TMP_FILES) {
		own_files[own_count] = path;
		own_count++;
	}
	return path;
}

static int output_slot(const char *output)
{
	for (int i = 0; i < noutputs; i++)
		if (!strcmp(outputs[i].final, output))
			return i;
	return -1;
}

char *tmp_output_name(const char *output)
{
	char *dir = dir_name(output);
	char *tmp = xasprintf("%s/.%s.lto-ld-%ld", dir, base_name(output),
			      (long)getpid());
	int i = output_slot(output);
	char *old;

	free(dir);
	if (i < 0) {
		if (noutputs == MAX_OUTPUTS)
			fatal("more than %d outputs", MAX_OUTPUTS);
		i = noutputs;
		outputs[i].final = xstrdup(output);
		outputs[i].tmp = NULL;
		noutputs = i + 1;
	}
	old = outputs[i].tmp;
	outputs[i].tmp = tmp;	/* set before the old one is freed */
	free(old);
	return tmp;
}

int tmp_output_commit(const char *output)
{
	int i = output_slot(output);
	char *tmp;

	if (i < 0 || !outputs[i].tmp)
		return 0;
	tmp = outputs[i].tmp;
	if (rename(tmp, output) != 0)
		return error("cannot rename %s to %s: %s", tmp, output,
			     strerror(errno));
	outputs[i].tmp = NULL;
	free(tmp);
	return 0;
}

/* rm -r for the private directory: it holds files and lto-wrapper's subdirectories. */
static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d) {
		unlink(path);
		return;
	}
	while ((de = readdir(d))) {
		char *child;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		child = path_join(path, de->d_name);
		if (de->d_type == DT_DIR)
			remove_tree(child);
		else
			unlink(child);
		free(child);
	}
	closedir(d);
	rmdir(path);
}

void tmp_cleanup(void)
{
	for (int i = 0; i < noutputs; i++) {
		char *tmp = outputs[i].tmp;

		if (tmp)
			unlink(tmp);	/* before the signal handler loses it */
		outputs[i].tmp = NULL;
		free(tmp);
	}
	if (!dir_path)
		return;
	if (keep_files)
		fprintf(stderr, "%s: temporary files kept in %s\n", progname,
			dir_path);
	else
		remove_tree(dir_path);
	for (int i = 0; i < own_count; i++)
		free(own_files[i]);
	own_count = 0;
	free(dir_path);
	dir_path = NULL;
}

void tmp_cleanup_from_signal(void)
{
	for (int i = 0; i < noutputs; i++)
		if (outputs[i].tmp)
			unlink(outputs[i].tmp);
	if (!dir_path || keep_files)
		return;
	for (int i = 0; i < own_count; i++)
		unlink(own_files[i]);
	rmdir(dir_path);
}
