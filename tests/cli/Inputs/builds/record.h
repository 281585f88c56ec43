/* A record every build of flavour.c reaches through a pointer: its fields
 * are named by the type, so two builds would meet on them. */
struct record {
  int payload;
  int ready;
};
