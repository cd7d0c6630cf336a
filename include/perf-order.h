/*
 * perf-order.h - a perf.data file's records in time order, read and put
 * in order on a second thread while the caller uses the records before.
 *
 * The kernel writes each CPU's records to a buffer of its own and perf
 * copies the buffers out one after the other, so the records of a file
 * are in time order per CPU only.  perf marks each time it has copied all
 * the buffers with a FINISHED_ROUND record.  A record may come a round
 * after newer ones (in the recordings tried, never two).  The thread
 * reads the data in chunks (pread, or a copy from memory), keeps the
 * records of the last rounds, and at each round's end hands on, sorted
 * by time (file order among equal times), those older than the newest
 * record read by the end of the round two rounds before, each sample
 * decoded, with the hash of its callchain (pe_sample_chain_hash).
 *
 * That order is the one a sort of the whole data gives as long as no
 * record comes after a newer one was handed on.  The thread checks that,
 * and gives up on any other record than the kernel's, rounds, event names
 * and the metadata records a file's walk passes over (it gives up on
 * attrs, features, compressed or AUXTRACE data, a record of a bad size):
 * po_finish then says so, and the caller reads the file again the usual
 * way.
 */
#ifndef FLAMETOP_PERF_ORDER_H
#define FLAMETOP_PERF_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf-record.h"

/* A record and the time it sorts by. */
struct pe_ref {
	uint64_t time;
	const unsigned char *rec;
};

/*
 * Sort a[0..n) by time, keeping the order of equal times, through tmp (n
 * entries).  Returns a or tmp: whichever holds the result.
 */
struct pe_ref *pe_sort_refs(struct pe_ref *a, struct pe_ref *tmp, size_t n);

/*
 * What the reader takes from a sample with no registers, user stack or
 * raw data (pe_sample's other fields are then zero), in a quarter of
 * pe_sample's size: the batches go from one core to the other.
 */
struct po_sample {
	uint64_t ip, time, addr, period;
	uint32_t pid, tid, cpu;
	uint16_t nr;            /* callchain entries */
	uint16_t chain;         /* the callchain's offset in the record */
	uint8_t cpumode;
	uint8_t has;            /* PO_HAS_*; 0: not decoded */
};

enum {
	PO_HAS_SAMPLE = 1,      /* s holds the sample, decoded */
	PO_HAS_TIME = 2,
	PO_HAS_TID = 4,
	PO_HAS_CPU = 8,
	PO_HAS_PERIOD = 16,
	PO_HAS_CALLCHAIN = 32,
};

/*
 * A record handed on.  A sample comes decoded (s, with its event ev and
 * its callchain's hash): the thread decodes it to hash its chain, and
 * the reader, the busier thread, need not decode it again.  s.has is 0
 * (and hash 0) for any other record, for a sample that does not decode
 * (the reader decodes those and says what is wrong) and for one with
 * registers, a user stack or raw data (the reader decodes those too).
 */
struct po_rec {
	const unsigned char *rec;
	uint64_t hash;
	const struct pe_event *ev;
	struct po_sample s;
};

/*
 * The sample pr holds (s.has set) into *s, zeroed before: only the
 * fields a po_sample holds are written.
 */
void po_sample_expand(const struct po_rec *pr, struct pe_sample *s);

/*
 * Records in a batch at most: the batches in flight (80 bytes a record)
 * stay within 1 MB whatever a round holds, and a smaller batch reaches
 * the reader sooner (1024 took 0.99x the wall time of 4096).
 */
#define PO_BATCH_RECS 1024

struct perf_order;

/*
 * Start reading the data section: len bytes at offset base of the file
 * behind fd, or, with fd < 0, at data.  el holds the events (it is only
 * read while the thread runs).  batch_max: records handed on at most at
 * once (0, or more than PO_BATCH_RECS: PO_BATCH_RECS).
 * NULL if no thread could be started.
 */
struct perf_order *po_start(int fd, const unsigned char *data, size_t len,
			    uint64_t base, const struct pe_evlist *el,
			    size_t batch_max);
/*
 * The next records in time order, *n of them, valid until the next call;
 * NULL when there are no more (or the thread gave up).
 */
const struct po_rec *po_next(struct perf_order *o, size_t *n);
/* How the data ended, and what the thread kept for the reader. */
struct po_end {
	size_t stray;           /* bytes after the last record, fewer than 8 */
	bool cut;               /* the last record runs past the data */
	/*
	 * The EVENT_UPDATE records read, in file order (nupdates bytes,
	 * the caller's to free), to walk once the records are taken: they
	 * only name events.
	 */
	unsigned char *updates;
	size_t nupdates;
};

/*
 * Stop the thread (if it still runs) and free o.  True if every record
 * of the data was handed on, in the order a sort of the whole data gives
 * (the data may end short: *end says how).
 */
bool po_finish(struct perf_order *o, struct po_end *end);

#endif
