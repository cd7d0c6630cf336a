// server.go - a Go service with net/http/pprof for tests/http/run.sh
// (the standard library only).  It burns CPU in burnForHTTPTest, keeps
// memory allocated by allocForHTTPTest, and serves besides:
//
//	/folded, /folded.gz  the files given with -folded and -gz
//	/moved               a redirection to /folded
//	/secret              /folded, only with "Authorization: Bearer t0ken"
//	/status/404, /500    an error with a message (the 500's with an escape)
//	/html                a page that is not a profile
//	/slow                answers after 20 s
//	/bomb                512 MiB of empty pprof strings in 512 KB of gzip,
//	                     sent as Content-Encoding: gzip unasked
//
// It listens on 127.0.0.1 at a free port and writes the port to -portfile.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime"
	"time"
)

var sink []byte
var kept [][]byte

//go:noinline
func burnForHTTPTest(n int) uint64 {
	var x uint64 = 1
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

//go:noinline
func allocForHTTPTest() {
	for i := 0; i < 32; i++ {
		kept = append(kept, make([]byte, 1<<20))
	}
}

func main() {
	folded := flag.String("folded", "", "a folded file to serve")
	gz := flag.String("gz", "", "a gzip'd folded file to serve")
	portfile := flag.String("portfile", "", "where to write the port")
	flag.Parse()

	allocForHTTPTest()
	runtime.GC()
	go func() {
		// Half the time busy, so that the profile has samples without
		// taking a whole CPU.
		for {
			start := time.Now()
			for time.Since(start) < 20*time.Millisecond {
				sink = append(sink[:0], byte(burnForHTTPTest(100000)))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	serve := func(path string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			http.ServeFile(w, r, path)
		}
	}
	http.HandleFunc("/folded", serve(*folded))
	http.HandleFunc("/folded.gz", serve(*gz))
	http.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/folded", http.StatusFound)
	})
	http.HandleFunc("/secret", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer t0ken" {
			http.Error(w, "a token is needed", http.StatusUnauthorized)
			return
		}
		http.ServeFile(w, r, *folded)
	})
	http.HandleFunc("/status/404", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such profile here", http.StatusNotFound)
	})
	http.HandleFunc("/status/500", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "profiler failed: \x1b[31mdisk full\x1b[0m\nsecond line",
			http.StatusInternalServerError)
	})
	http.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintln(w, "<html><body><h1>Welcome</h1><p>Nothing to see.</p></body></html>")
	})
	http.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Second)
		fmt.Fprintln(w, "main;late 1")
	})
	http.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Encoding", "gzip")
		zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
		empty := bytes.Repeat([]byte{0x32, 0x00}, 1<<19)
		for i := 0; i < 512; i++ {
			zw.Write(empty)
		}
		zw.Close()
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := os.WriteFile(*portfile+".tmp", []byte(fmt.Sprintf("%d\n", port)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Rename(*portfile+".tmp", *portfile)
	fmt.Fprintln(os.Stderr, http.Serve(ln, nil))
	os.Exit(1)
}
