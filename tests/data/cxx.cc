// cxx.cc - a C++ program for the demangling tests: its hot functions are
// a class template's member, a namespace's function and an overload, so
// their ELF names are mangled (_ZNK4shop6BasketIlE5totalEi, ...).
#include <cstdlib>
#include <ctime>

namespace shop {

static volatile unsigned long sink;

// Calling it makes total() a non-leaf, which then keeps a frame pointer
// (gcc gives leaves none, and a sample there would lose the caller).
__attribute__((noinline)) void touch(unsigned long x)
{
	sink = x;
}

template <typename T> class Basket {
public:
	explicit Basket(T seed) : seed_(seed) {}
	__attribute__((noinline)) T total(int n) const
	{
		T x = seed_;
		for (int i = 0; i < n; i++)
			x = x * 6364136223846793005l + 1442695040888963407l;
		if (x == 0)
			touch((unsigned long)x);
		sink = (unsigned long)x;
		return x;
	}

private:
	T seed_;
};

__attribute__((noinline)) long checkout(const Basket<long> &b, int n)
{
	long r = b.total(2 * n);
	sink++;
	return r;
}

__attribute__((noinline)) long checkout(const Basket<long> &b, double f)
{
	long r = b.total((int)f);
	sink++;
	return r;
}

} // namespace shop

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.5;
	shop::Basket<long> b(42);
	struct timespec a, c;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do {
		shop::checkout(b, 100000);
		shop::checkout(b, 100000.0);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
	} while ((double)(c.tv_sec - a.tv_sec) + (double)(c.tv_nsec - a.tv_nsec) / 1e9 < secs);
	return 0;
}
