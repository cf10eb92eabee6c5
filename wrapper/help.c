/*
 * lto-ld --help.  The real ld's --help follows this text (configure
 * scripts grep it for ld's options), so it starts with a line saying
 * whose options these are and ends with one saying whose come next.
 */
#include "help.h"
#include "util.h"

static const char own_options[] =
	"  --lto-partial=fat|thin|native|ir  output of ld -r when inputs hold\n"
	"                                GCC IR (default fat: native code plus the\n"
	"                                IR); also --lto-partial MODE\n"
	"  --lto-whole-program           ld -r with IR: definitions nothing outside\n"
	"                                the IR uses become internal to the LTO unit\n"
	"  --lto-keep=FILE               names or globs (one a line) that\n"
	"                                --lto-whole-program keeps global\n"
	"  --lto-keep-symbol=GLOB        one name or glob to keep; repeatable\n"
	"  --lto-exports=FILE            with --lto-whole-program: keep only the\n"
	"                                kernel-style exports FILE names\n"
	"  --lto-final-weak              with --lto-whole-program: make weak\n"
	"                                definitions internal too\n"
	"  --lto-report=FILE             what became of each IR definition (JSON\n"
	"                                when FILE ends in .json); also --lto-report FILE\n"
	"  --lto-cache=DIR               keep each LTRANS object in DIR and reuse it\n"
	"                                when the same partition is compiled again\n"
	"  --print-cc-plugin             print the GCC compiler plugin for -fplugin=\n"
	"                                and exit\n"
	"  --lto-flags=FLAGS             options for the LTO step, space-separated\n"
	"  -save-temps, --save-temps     keep the private temporary directory\n";

static const char environment[] =
	"  LTO_LD_REAL_LD LTO_LD_CC LTO_LD_PARTIAL LTO_LD_JOBS LTO_LD_LTO_FLAGS\n"
	"  LTO_LD_PLUGIN LTO_LD_REPORT LTO_LD_WHOLE_PROGRAM LTO_LD_FINAL_WEAK\n"
	"  LTO_LD_EXPORTS LTO_LD_CACHE LTO_LD_CACHE_SIZE LTO_LD_SAVE_TEMPS\n"
	"  LTO_LD_VERBOSE TMPDIR LTO_LD_RUNNING\n";

void help_print(FILE *f)
{
	fprintf(f,
		"Usage: %s [lto-ld options] [ld options] file...\n"
		"lto-ld runs the real ld, with GCC's LTO when inputs hold GCC IR.\n"
		"lto-ld options (consumed, not passed to ld):\n%s"
		"Environment (see lto-ld(1)):\n%s"
		"Exit status: the real ld's; 1 when lto-ld itself fails.\n"
		"Every other option goes to the real ld, whose --help follows.\n\n",
		progname, own_options, environment);
}
