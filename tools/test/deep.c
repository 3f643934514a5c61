/* The tools suite's deep-stack target: main recurses 60 deep through a
 * function with a long name, then spins in deep_leaf_spin, so that a folded
 * stack line is far longer than 1 KiB.  Built with frame pointers and no
 * sibling calls, so every level is a frame.  Argument: spin iterations in
 * millions (default 300). */
#include <stdlib.h>

#define DEPTH 60

static volatile unsigned long sink;

__attribute__((noinline)) void deep_leaf_spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

__attribute__((noinline)) int descend_through_a_function_with_a_rather_long_name_to_make_long_stacks(int d, unsigned long n)
{
	if (d == 0)
		deep_leaf_spin(n);
	else
		descend_through_a_function_with_a_rather_long_name_to_make_long_stacks(d - 1, n);
	return (int)(sink & 1); /* work after the call: no tail call */
}

int main(int argc, char **argv)
{
	unsigned long m = argc > 1 ? strtoul(argv[1], NULL, 10) : 300;
	return descend_through_a_function_with_a_rather_long_name_to_make_long_stacks(DEPTH, m * 1000000) & 0;
}
