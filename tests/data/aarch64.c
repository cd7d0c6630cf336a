/* aarch64 fixture of tests/unit/test-disasm.c: a call and a branch. */
__attribute__((noinline)) int tri(int x)
{
	return x * 3 + 1;
}

int loop(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += tri(i);
	return s;
}

void _start(void)
{
	loop(10);
	for (;;)
		;
}
