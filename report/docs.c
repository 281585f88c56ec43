/* The rules' documentation, embedded from docs/rules/ at build time. */
#include "bp_report.h"

#include <stdlib.h>
#include <string.h>

struct bp_embedded_doc {
  const char *name, *text;
};
extern const struct bp_embedded_doc bp_embedded_docs[];

const char *bp_rule_doc(const char *rule) {
  for (const struct bp_embedded_doc *doc = bp_embedded_docs; doc->name; doc++) {
    if (strcmp(doc->name, rule) == 0)
      return doc->text;
  }
  return NULL;
}

/* Appends `text` [0, length) without Markdown's emphasis and code marks,
 * lines joined with spaces. */
static size_t append_plain(char *out, size_t n, const char *text, size_t length) {
  for (size_t i = 0; i < length; i++) {
    char c = text[i];
    if (c == '*' || c == '`')
      continue;
    if (c == '\n')
      c = ' ';
    if (c == ' ' && n && out[n - 1] == ' ')
      continue;
    out[n++] = c;
  }
  return n;
}

char *bp_rule_summary(const char *rule) {
  const char *doc = bp_rule_doc(rule);
  const char *start = doc ? strstr(doc, "**Fires when**") : NULL;
  if (!start) {
    const char *fallback = "See the rule's documentation.";
    char *text = malloc(strlen(rule) + strlen(fallback) + 16);
    if (!text)
      abort();
    sprintf(text, "barrierpair-%s. %s", rule, fallback);
    return text;
  }
  start += strlen("**Fires when**");
  while (*start == ' ')
    start++;
  const char *end = strstr(start, "\n\n");
  size_t length = end ? (size_t)(end - start) : strlen(start);
  char *text = malloc(length + 16);
  if (!text)
    abort();
  size_t n = append_plain(text, 0, "Fires when ", 11);
  n = append_plain(text, n, start, length);
  while (n && text[n - 1] == ' ')
    n--;
  text[n] = '\0';
  return text;
}
