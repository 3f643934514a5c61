#include "cli.h"
int rpt_cmd_record(int argc, char **argv) { (void)argc; (void)argv; return 1; }
