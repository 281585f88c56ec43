/* The `barrierpair check` command that analyses one open document with the
 * compile command clangd uses for it. */
#ifndef BARRIERPAIR_CLANGD_ANALYSIS_COMMAND_H
#define BARRIERPAIR_CLANGD_ANALYSIS_COMMAND_H

/* argv (NULL-terminated, malloc()ed with its strings) analysing the absolute
 * `path` with the text of `contents_path`, reporting JSON. The compilation
 * database is clangd's: `compile_commands_dir` when clangd was given
 * --compile-commands-dir, else the nearest compile_commands.json (or
 * build/compile_commands.json, or compile_flags.txt) in the file's directory
 * and above; with none, clangd's fallback: the file alone, no flags. */
char **analysis_command(const char *barrierpair, const char *path, const char *contents_path,
                        const char *compile_commands_dir);

void analysis_command_free(char **argv);

#endif
