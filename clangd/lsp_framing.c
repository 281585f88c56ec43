/* LSP framing. Headers are read a line at a time so that junk before a
 * header (a message without one, a stray line) is skipped up to the next
 * `Content-Length`, and the stream stays usable. */
#define _POSIX_C_SOURCE 200809L

#include "lsp_framing.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_HEADER_LINE = 4096, MAX_BODY = 256 * 1024 * 1024 };

void lsp_reader_init(lsp_reader *reader, int fd) {
  reader->fd = fd;
  reader->start = reader->end = 0;
}

static bool fill(lsp_reader *reader) {
  if (reader->start == reader->end)
    reader->start = reader->end = 0;
  if (reader->end == sizeof reader->buffer) {
    memmove(reader->buffer, reader->buffer + reader->start, reader->end - reader->start);
    reader->end -= reader->start;
    reader->start = 0;
  }
  for (;;) {
    ssize_t n = read(reader->fd, reader->buffer + reader->end, sizeof reader->buffer - reader->end);
    if (n > 0) {
      reader->end += (size_t)n;
      return true;
    }
    if (n < 0 && errno == EINTR)
      continue;
    return false;
  }
}

/* One header line without its line break (CRLF or LF); false at the end of
 * input. Over-long lines are cut at MAX_HEADER_LINE. */
static bool read_line(lsp_reader *reader, char *line, size_t size) {
  size_t n = 0;
  for (;;) {
    if (reader->start == reader->end && !fill(reader))
      return false;
    char c = reader->buffer[reader->start++];
    if (c == '\n') {
      if (n && line[n - 1] == '\r')
        n--;
      line[n] = '\0';
      return true;
    }
    if (n + 1 < size)
      line[n++] = c;
  }
}

static bool read_exactly(lsp_reader *reader, char *out, size_t length) {
  size_t done = 0;
  while (done < length) {
    if (reader->start == reader->end && !fill(reader))
      return false;
    size_t chunk = reader->end - reader->start;
    if (chunk > length - done)
      chunk = length - done;
    memcpy(out + done, reader->buffer + reader->start, chunk);
    reader->start += chunk;
    done += chunk;
  }
  return true;
}

/* The first `needle` in `line`, ignoring case, or NULL. */
static const char *find_ignoring_case(const char *line, const char *needle) {
  size_t length = strlen(needle);
  for (const char *at = line; *at; at++) {
    size_t n = 0;
    while (n < length && at[n] &&
           tolower((unsigned char)at[n]) == tolower((unsigned char)needle[n]))
      n++;
    if (n == length)
      return at;
  }
  return NULL;
}

lsp_read_status lsp_read(lsp_reader *reader, char **body, size_t *length, char *problem,
                         size_t problem_size) {
  static const char content_length[] = "Content-Length:";
  char line[MAX_HEADER_LINE];
  long long declared = -1;
  bool junk = false, seen = false, bad_length = false;
  for (;;) {
    if (!read_line(reader, line, sizeof line))
      return LSP_READ_END;
    if (line[0] == '\0') {
      if (declared >= 0)
        break;
      if (seen) {
        if (!bad_length)
          snprintf(problem, problem_size, "a header without Content-Length");
        return LSP_READ_MALFORMED;
      }
      continue; /* a blank line between messages */
    }
    seen = true;
    /* A header may follow junk on the same line (a body sent without one). */
    const char *header = find_ignoring_case(line, content_length);
    if (header) {
      if (header != line)
        junk = true;
      char *end;
      errno = 0;
      declared = strtoll(header + sizeof content_length - 1, &end, 10);
      while (*end == ' ' || *end == '\t')
        end++;
      if (errno || *end || declared < 0 || declared > MAX_BODY) {
        snprintf(problem, problem_size, "a bad Content-Length: '%.200s'", line);
        declared = -1;
        bad_length = true;
      }
      continue;
    }
    if (!strchr(line, ':'))
      junk = true;
  }
  char *text = malloc((size_t)declared + 1);
  if (!text)
    abort();
  if (!read_exactly(reader, text, (size_t)declared)) {
    free(text);
    return LSP_READ_END;
  }
  text[declared] = '\0';
  if (junk) {
    /* The message itself is fine; what came before it is reported once the
     * message is delivered, so the caller logs it without losing it. */
    snprintf(problem, problem_size, "skipped bytes that were not a header");
  } else if (problem_size) {
    problem[0] = '\0';
  }
  *body = text;
  *length = (size_t)declared;
  return LSP_READ_MESSAGE;
}

bool lsp_write(int fd, const char *body, size_t length) {
  char header[64];
  int header_length = snprintf(header, sizeof header, "Content-Length: %zu\r\n\r\n", length);
  const char *parts[2] = {header, body};
  size_t sizes[2] = {(size_t)header_length, length};
  for (int part = 0; part < 2; part++) {
    size_t done = 0;
    while (done < sizes[part]) {
      ssize_t n = write(fd, parts[part] + done, sizes[part] - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return false;
      done += (size_t)n;
    }
  }
  return true;
}
