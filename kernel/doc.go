// Package kernel is the discrete-event engine of netsim, with the random
// number generator every stochastic decision of a simulation draws from.
//
// # Engine
//
// An Engine owns simulated time (Time, in cycles: one cycle is the time one
// flit takes on a link) and a queue of pending events. An Event is a small
// value (Kind, Target, Arg): components are addressed by index, so
// scheduling allocates nothing and needs no closure or interface per event.
// Run delivers the events to a single Handler, which dispatches on Kind and
// Target and may Schedule further events at Now() or later.
//
// Run(until) processes every event with time < until and then sets Now()
// to until; events at until stay pending, so a simulation can be advanced
// in slices (warm-up, measurement, drain) with identical results. A handler
// may end a Run early with Stop. An Engine is single-threaded.
//
// # Ordering
//
// Events are delivered in increasing (time, insertion sequence) order:
// events for the same cycle come out in the order Schedule was called for
// them, whichever path through the queue they took. A simulation whose
// handlers and random streams are deterministic is therefore
// bit-reproducible.
//
// # Watchdog
//
// SetWatchdog turns silent deadlocks into errors. The model calls Progress
// whenever a flit moves, or ProgressUntil when it commits to moving flits
// until a later cycle; when time advances by at least the watchdog window
// past the last progress, the engine asks the model whether it is busy
// (flits in flight). A busy model is deadlocked and Run returns a
// *DeadlockError; an idle one restarts the window. When the queue runs dry
// while the model is busy nothing can ever move again, and Run reports the
// deadlock at once.
//
// # Queue design
//
// The queue is a timing wheel of W one-cycle buckets (DefaultWheelSize,
// 4096; NewEngineSize chooses another power of two) in front of an overflow
// heap:
//
//   - An event less than W cycles ahead of Now() is appended to the bucket
//     of its cycle: O(1). Each bucket is a FIFO slice, so insertion order is
//     kept for free. Drained bucket arrays go to a stack of spares that the
//     next bucket to fill reuses, so after warm-up nothing is allocated and
//     the memory held is that of the buckets in use, whatever W is.
//   - An event W or more cycles ahead goes to a binary min-heap keyed by
//     (time, sequence number).
//   - Each time Now() advances, the heap events that enter the window
//     [Now(), Now()+W) are moved, in (time, sequence) order, to the end of
//     their buckets, before any handler runs. An event can be scheduled
//     directly into a bucket only once its cycle is inside the window, that
//     is after the migration for that cycle, and every heap event for a
//     cycle was scheduled before the cycle entered the window. So heap
//     events always precede direct ones of the same cycle, as their
//     sequence numbers do, and the order is exactly (time, sequence).
//   - A bitmap of non-empty buckets lets Run find the next busy cycle 64
//     buckets at a time, and when the wheel is empty Run jumps straight to
//     the heap's minimum, so idle stretches cost almost nothing.
//
// Flit-level network models schedule nearly all events a few cycles ahead
// (link traversal, router pipeline, credit return); only rare timers reach
// the heap, and they pay O(log n) once.
//
// # Measurements
//
// The hold model keeps N events pending; each step removes the earliest
// and schedules one at now + d, d uniform in [1, 2·mean] with mean =
// max(16, N/1000), so that 60 to 1000 events share each cycle. In the
// "far" variant 3 % of the delays are in [65536, 131072), beyond the wheel;
// being long, those events make up most of the population, which then
// lives mostly in the heap. The wheel runs the full Engine, Handler call
// included; the heaps run a bare pop/push loop, keyed by (time, seq). The
// table gives ns per schedule+pop, the median of 5 runs on a shared
// 2-vCPU AMD EPYC VM (Go 1.26, linux/amd64):
//
//	                        N=1e3   N=1e5   N=1e6   far N=1e3  far N=1e5  far N=1e6
//	timing wheel (W=4096)     8.8     8.6    19.6        21.1       18.6       36.5
//	binary heap (engine's)   71.5   127.1   374.8        37.1      126.3      387.7
//	4-ary heap               89.7   151.9   364.7        49.1      153.1      382.0
//	container/heap          154.4   245.7   611.6       136.1      265.9      569.2
//
// With buckets well filled the wheel is 8 (N=1e3) to 19 (N=1e6) times
// faster than the best heap and 17 to 31 times faster than container/heap,
// and it allocates nothing; container/heap allocates twice per step
// (boxing in Push and Pop). At N=1e6 the 12 MB of pending events no longer
// fit in cache: the wheel pays for streaming them through memory, a heap
// for a cache miss at nearly every level. The far variant at N=1e3 is the
// wheel's worst case, mostly heap traffic at about 0.3 events per cycle,
// and it still wins by 1.8 times. Under this tie-heavy load the binary
// heap beats the 4-ary one except at N=1e6, where they are even, so the
// overflow heap is binary. Run on this VM, the measurements vary by up to
// ±30 % with the load of the other tenants.
//
// BenchmarkWheelSize chose W: W = 256 or 1024 send most of the N=1e6
// delays (up to 2000 cycles) to the heap and cost 6 to 15 times more there,
// while W = 16384 gains nothing over 4096 (9, 9 and 19 ns at W=4096 against
// 9, 9 and 21 ns at W=16384). BenchmarkSparse keeps 10 events pending: the
// cost per event grows from 17 ns (mean delay 100) to 24 ns (1000, empty
// buckets skipped through the bitmap) and 46 ns (100000, all through the
// heap).
//
// To reproduce:
//
//	go test -run '^$' -bench 'Hold' -benchtime 5000000x -count 5 ./kernel
//	go test -run '^$' -bench 'WheelSize|Sparse' -benchtime 5000000x -count 3 ./kernel
//
// # Random numbers
//
// RNG is xoshiro256**; NewRNG derives independent streams from an
// experiment seed and stream identifiers, so every component can own its
// stream and results do not depend on the order in which components draw.
package kernel
