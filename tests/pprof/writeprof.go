// writeprof writes a CPU profile and a heap profile with a few distinct
// stacks, for flametop's pprof tests: go run writeprof.go CPU.pprof HEAP.pprof
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

var sink [][]byte
var acc uint64

//go:noinline
func spinA(n int) uint64 {
	var x uint64
	for i := 0; i < n; i++ {
		x += uint64(i) * 2654435761
	}
	return x
}

//go:noinline
func spinB(n int) uint64 { return spinA(n) ^ spinA(n/2) }

//go:noinline
func allocSmall(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, make([]byte, 64))
	}
}

// mk is small enough to be inlined: its allocations are a location with
// two lines (mk inlined into allocMid).
func mk(n int) []byte { return make([]byte, n) }

//go:noinline
func allocMid(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, mk(4096))
	}
}

//go:noinline
func allocBig(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, make([]byte, 256<<10))
	}
}

//go:noinline
func work(d time.Duration) {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		acc += spinA(200000)
		acc += spinB(200000)
	}
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: writeprof CPU.pprof HEAP.pprof")
		os.Exit(2)
	}
	cpu, err := os.Create(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	work(300 * time.Millisecond)
	pprof.StopCPUProfile()
	cpu.Close()

	runtime.MemProfileRate = 1
	allocSmall(2000)
	allocMid(100)
	allocBig(40)
	runtime.GC()
	heap, err := os.Create(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := pprof.WriteHeapProfile(heap); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	heap.Close()
	fmt.Println(acc&1, len(sink))
}
