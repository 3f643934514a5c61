/* The tools suite's profiling target: two hot functions, busy_a doing three
 * times the work of busy_b, called from main.  Built with -O0 -g
 * -fno-omit-frame-pointer -fno-inline so that both profilers see the same
 * functions and frame-pointer call chains.  Argument: total iterations in
 * millions (default 300). */
#include <stdlib.h>

static volatile unsigned long sink;

void busy_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

void busy_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

int main(int argc, char **argv)
{
	unsigned long m = argc > 1 ? strtoul(argv[1], NULL, 10) : 300;
	for (unsigned long r = 0; r < m; r++) {
		busy_a(750000);
		busy_b(250000);
	}
	return argc > 2 ? atoi(argv[2]) : 0;
}
