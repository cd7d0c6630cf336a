/*
 * aliases.c - a shared library for the symbol table tests (README.md):
 *
 * - lib_release has the aliases libc gives free: __lib_release (global,
 *   more underscores) and obsolete_release, exported only as a hidden
 *   version (obsolete_release@ALIASES_1, as libc's cfree@GLIBC_2.2.5),
 *   whose name is the longest; the name shown must be lib_release;
 * - spin_outer holds a global label without a size in its code
 *   (inner_label, as V8's construct_stub_create_deopt_addr inside
 *   Builtins_JSConstructStubGeneric): the addresses after the label are
 *   still spin_outer's.
 */
volatile unsigned long aliases_sink;

void __lib_release(void *p)
{
	aliases_sink += (unsigned long)p;
}
extern __typeof(__lib_release) lib_release
	__attribute__((alias("__lib_release")));
extern __typeof(__lib_release) obsolete_release_compat
	__attribute__((alias("__lib_release")));
__asm__(".symver obsolete_release_compat, obsolete_release@ALIASES_1");

void spin_outer(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		aliases_sink += i;
	__asm__ volatile(".globl inner_label\ninner_label:");
	for (unsigned i = 0; i < n; i++)
		aliases_sink ^= i * 7;
}
