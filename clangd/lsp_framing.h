/* LSP base protocol: messages framed by a `Content-Length` header. */
#ifndef BARRIERPAIR_CLANGD_LSP_FRAMING_H
#define BARRIERPAIR_CLANGD_LSP_FRAMING_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  LSP_READ_MESSAGE,   /* a body was read */
  LSP_READ_MALFORMED, /* a header without a usable Content-Length, skipped */
  LSP_READ_END        /* end of input, or a read error */
} lsp_read_status;

typedef struct {
  int fd;
  char buffer[65536];
  size_t start, end; /* the unread bytes of buffer */
} lsp_reader;

void lsp_reader_init(lsp_reader *reader, int fd);

/* Reads the next message. On LSP_READ_MESSAGE, *body is the malloc()ed body
 * (NUL-terminated, *length bytes without the NUL); on LSP_READ_MALFORMED,
 * `problem` says what was wrong. */
lsp_read_status lsp_read(lsp_reader *reader, char **body, size_t *length, char *problem,
                         size_t problem_size);

/* Writes one framed message whole; false when the other side is gone. The
 * caller serialises writers of one descriptor. */
bool lsp_write(int fd, const char *body, size_t length);

#endif
