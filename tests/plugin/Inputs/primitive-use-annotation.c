// Input of primitive-use.test: no primitive, only an annotation, of a rule
// that does not exist.
int plain;

void set_plain(void) {
  // barrierpair: ignore no-such-rule: nothing here needs a barrier
  plain = 1;
}
