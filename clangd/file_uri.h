/* file:// URIs of LSP and the paths they name. */
#ifndef BARRIERPAIR_CLANGD_FILE_URI_H
#define BARRIERPAIR_CLANGD_FILE_URI_H

/* The path of a file:// URI, percent-decoded (malloc()ed), or NULL for
 * another scheme. */
char *file_uri_to_path(const char *uri);

/* The file:// URI of an absolute path, percent-encoded as clangd writes it
 * (malloc()ed). */
char *file_uri_from_path(const char *path);

#endif
