/* The floor of `duet design-tokens --check` from YAML (issue 20): libyaml's
 * event parse of a config alone, with nothing built from the events, to set
 * beside duet's own time in docs/performance.md.
 *
 *   cc -O2 -o /tmp/yaml-events-floor tools/yaml-events-floor.c -lyaml
 *   perf stat -r 20 /tmp/yaml-events-floor CONFIG.yaml
 *
 * (tools/bench-tokens writes the bench config into a temporary tree; its
 * make_config() gives the same text.) */
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s CONFIG.yaml\n", argv[0]); return 2; }
  FILE *file = fopen(argv[1], "rb");
  if (!file) { perror(argv[1]); return 1; }
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  unsigned char *bytes = malloc(size > 0 ? size : 1);
  if (!bytes || fread(bytes, 1, size, file) != (size_t)size) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
  fclose(file);

  yaml_parser_t parser;
  yaml_event_t event;
  long events = 0;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, bytes, size);
  for (;;) {
    if (!yaml_parser_parse(&parser, &event)) { fprintf(stderr, "not YAML: %s\n", parser.problem); return 1; }
    int end = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
    events++;
    if (end) break;
  }
  yaml_parser_delete(&parser);
  free(bytes);
  printf("%ld events\n", events);
  return 0;
}
