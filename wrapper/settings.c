#include "settings.h"
#include "ldopts.h"
#include "util.h"

struct settings settings;

void settings_read(void)
{
	settings.real_ld = env_value("LTO_LD_REAL_LD");
	settings.cc = env_value("LTO_LD_CC");
	settings.collect_gcc = env_value("COLLECT_GCC");
	settings.plugin = env_value("LTO_LD_PLUGIN");
	settings.partial = env_value("LTO_LD_PARTIAL");
	settings.jobs = env_value("LTO_LD_JOBS");
	settings.lto_flags = env_value("LTO_LD_LTO_FLAGS");
	settings.report = env_value("LTO_LD_REPORT");
	settings.exports = env_value("LTO_LD_EXPORTS");
	settings.cache = env_value("LTO_LD_CACHE");
	settings.cache_size = env_value("LTO_LD_CACHE_SIZE");
	settings.whole_program = env_flag("LTO_LD_WHOLE_PROGRAM");
	settings.final_weak = env_flag("LTO_LD_FINAL_WEAK");
	settings.save_temps = env_flag("LTO_LD_SAVE_TEMPS");
	settings.verbose = env_flag("LTO_LD_VERBOSE");
	verbose = settings.verbose;
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
