/* The real ld's command line, from the caller's. */
#include "ldargs.h"
#include "../inputs.h"
#include "../ldopts.h"
#include "strvec.h"

/*
 * The caller's arguments (without -o unless KEEP_OUTPUT), with lto-ld thin
 * archives not already under --whole-archive wrapped so that every member
 * is linked.
 */
void ldargs_push(struct strvec *out, const struct ld_cmdline *cmd,
		 const struct inputs_info *info, bool keep_output)
{
	size_t next_input = 0;

	for (size_t i = 0; i < cmd->args.n; i++) {
		const struct ld_input *in = NULL;

		if (cmd->roles[i] == ROLE_OUTPUT && !keep_output)
			continue;
		/* ld ignores them, and the -o lto-ld adds must not follow "--" */
		if (cmd->roles[i] == ROLE_IGNORED)
			continue;
		while (next_input < cmd->ninputs &&
		       cmd->inputs[next_input].arg < i)
			next_input++;
		if (next_input < cmd->ninputs && cmd->inputs[next_input].arg == i)
			in = &cmd->inputs[next_input];
		if (in && info->file && info->file[next_input].lto_ld_thin &&
		    !in->whole_archive) {
			strvec_push(out, "--push-state");
			strvec_push(out, "--whole-archive");
			strvec_push(out, cmd->args.v[i]);
			/* "-l NAME" is two arguments */
			if (in->is_library && i + 1 < cmd->args.n &&
			    cmd->roles[i + 1] == ROLE_INPUT && in->name == cmd->args.v[i + 1])
				strvec_push(out, cmd->args.v[++i]);
			strvec_push(out, "--pop-state");
			continue;
		}
		strvec_push(out, cmd->args.v[i]);
	}
}
