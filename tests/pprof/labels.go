// labels writes a CPU profile whose samples carry pprof labels, for
// flametop's label tests: go run labels.go OUT.pprof
//
// worker=a (with kind=batch) burns twice the CPU time of worker=b, and
// some work runs without labels.  The work is measured in the thread's
// own CPU time, not wall time, so busy CPUs only make the run longer.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"
)

var sink uint64

// threadCPU is the CPU time of the calling thread (RUSAGE_THREAD).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

//go:noinline
func spin(d time.Duration) uint64 {
	var x uint64
	for start := threadCPU(); threadCPU()-start < d; {
		for i := 0; i < 200000; i++ {
			x += uint64(i) * 2654435761
		}
	}
	return x
}

//go:noinline
func workA() { sink += spin(600 * time.Millisecond) }

//go:noinline
func workB() { sink += spin(300 * time.Millisecond) }

//go:noinline
func idle() { sink += spin(150 * time.Millisecond) }

func main() {
	runtime.LockOSThread()
	f, err := os.Create(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx := context.Background()
	pprof.Do(ctx, pprof.Labels("worker", "a", "kind", "batch"),
		func(context.Context) { workA() })
	pprof.Do(ctx, pprof.Labels("worker", "b"),
		func(context.Context) { workB() })
	idle()
	pprof.StopCPUProfile()
	f.Close()
}
