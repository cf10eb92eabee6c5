/*
 * IR inputs as the user knows them.  The linker plugin API names an
 * input by a file and an offset: an archive member by its archive and
 * the offset of its data, a thin archive's member by the member's own
 * file.  These are turned into "archive(member)" for members of regular
 * archives and of the thin archives among the link's inputs, else the
 * file's name.  Archives are read once, however many names are asked for.
 */
#ifndef LTO_LD_INPUTNAME_H
#define LTO_LD_INPUTNAME_H

struct inputs_info;
struct input_names;
struct ld_cmdline;

/* An empty index for CMD's inputs (INFO: what the scan found, may hold no files). */
struct input_names *input_names_new(const struct ld_cmdline *cmd,
				    const struct inputs_info *info);

/*
 * INPUT and OFFSET as the plugin gives them, named for messages: newly
 * allocated.  "an IR object" when INPUT is empty, "ARCHIVE@OFFSET" when
 * no member of ARCHIVE starts there.
 */
char *input_name(struct input_names *names, const char *input,
		 unsigned long long offset);

void input_names_free(struct input_names *names);

#endif
